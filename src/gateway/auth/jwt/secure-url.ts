// HTTPS is required for every URL keys are fetched from, except loopback hosts (local development
// and tests): 127.0.0.0/8, ::1 and localhost.
import { AuthError } from './errors.js';

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Returns the parsed URL or throws AuthError INSECURE_URL. */
export function assertSecureUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthError('INSECURE_URL', 'not an absolute URL');
  }
  if (url.username !== '' || url.password !== '')
    throw new AuthError('INSECURE_URL', 'URL must not carry credentials');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  throw new AuthError(
    'INSECURE_URL',
    `URL must use https (plain http is allowed only for loopback hosts): ${url.origin}`,
  );
}
