// Where the OpenID Connect provider sends the browser back (the `redirect_uri`): admin.oidc.redirectUrl
// when set; else derived from configuration — admin.publicUrl, or the listener's own address — never from
// the request's Host header, which the client chooses. On a loopback (or every-interface) listener the
// browser may have used 127.0.0.1 or localhost; the request's Host only picks between those two (the
// session binding cookie is per host name), as the development authorization server registers both.
import { listenerBaseUrl, type Listener } from '../../shared/http/listener-url.js';

export const CALLBACK_PATH = '/portal/auth/callback';

export type PortalListener = Listener;

export function callbackUrl(
  listener: PortalListener,
  boundPort: number | undefined,
  requestHost: string | undefined,
): string {
  return `${listenerBaseUrl(listener, boundPort, requestHost)}${CALLBACK_PATH}`;
}
