// Where a user connects an upstream account (identity mode delegation): pages of the portal, on the admin
// listener, because that is where a user is signed in to the gateway in a browser (the portal session).
// The link an agent shows is the same for every user — it names the backend, never the user — so a link
// opened by someone else connects that person's own account, not the sender's. The upstream's
// authorization server sends the browser back to one callback for every backend; like the portal's own
// sign-in callback it is derived from configuration, never from the request's Host.
import { listenerBaseUrl, type Listener } from '../../../shared/http/listener-url.js';

/** The admin listener (admin.host, admin.port, admin.publicUrl): where the portal is. */
export type PortalListener = Listener;

/** Under the portal's prefix (/portal). */
export const CONNECTIONS_ROUTE = '/federation';
export const CONNECT_ROUTE = '/federation/:backend/connect';
export const DISCONNECT_ROUTE = '/federation/:backend/disconnect';
export const CALLBACK_ROUTE = '/federation/callback';
export const CALLBACK_PATH = `/portal${CALLBACK_ROUTE}`;

export function connectPath(backend: string): string {
  return `/portal/federation/${encodeURIComponent(backend)}/connect`;
}

/** The portal's base URL as a browser reaches it: admin.publicUrl, else the listener's canonical name. */
export function portalBaseUrl(listener: PortalListener, boundPort?: number): string {
  return listenerBaseUrl(listener, boundPort);
}

/** The page that starts the sign-in at `backend`'s authorization server (the link the agent relays). */
export function connectUrl(listener: PortalListener, backend: string): string {
  return `${portalBaseUrl(listener)}${connectPath(backend)}`;
}

/**
 * The redirect_uri registered at the upstream authorization servers: under admin.publicUrl, else the
 * listener's address; on a loopback listener the browser's own loopback name is kept (cookies are per
 * host name), as the portal's sign-in callback does.
 */
export function delegationCallbackUrl(
  listener: PortalListener,
  boundPort: number | undefined,
  requestHost: string | undefined,
): string {
  return `${listenerBaseUrl(listener, boundPort, requestHost)}${CALLBACK_PATH}`;
}
