// The transport rule for every URL keys or provider metadata are fetched from: HTTPS, except loopback hosts
// (local development and tests) — 127.0.0.0/8, ::1 and localhost — and never credentials in the URL.
// Configuration checks the URLs it is given at load; the gateway checks the URLs a discovery document
// names before fetching them. Each wraps the reason in its own error type.

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost') return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why keys must not be fetched from `value`, or undefined when they may. */
export function insecureUrlReason(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'URL must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `URL must use https (plain http is allowed only for loopback hosts): ${url.origin}`;
}
