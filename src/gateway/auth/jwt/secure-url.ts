// HTTPS is required for every URL keys are fetched from, except loopback hosts (src/shared/secure-url.ts):
// here as the authentication library's error.
import { insecureUrlReason } from '../../../shared/secure-url.js';
import { AuthError } from './errors.js';

export { isLoopbackHost } from '../../../shared/secure-url.js';

/** Returns the parsed URL or throws AuthError INSECURE_URL. */
export function assertSecureUrl(value: string): URL {
  const reason = insecureUrlReason(value);
  if (reason !== undefined) throw new AuthError('INSECURE_URL', reason);
  return new URL(value);
}
