// Where a user connects an upstream account (identity mode delegation): pages of the portal, on the admin
// listener, because that is where a user is signed in to the gateway in a browser (the portal session).
// The link an agent shows is the same for every user — it names the backend, never the user — so a link
// opened by someone else connects that person's own account, not the sender's. The upstream's
// authorization server sends the browser back to one callback for every backend; like the portal's own
// sign-in callback it is derived from configuration, never from the request's Host.

/** The admin listener (admin.host, admin.port, admin.publicUrl): where the portal is. */
export interface PortalListener {
  readonly host: string;
  /** 0: any free port (the bound one is used where known). */
  readonly port: number;
  readonly publicUrl?: string | undefined;
}

const LOOPBACK_OR_ANY = new Set(['0.0.0.0', '::', '127.0.0.1', 'localhost']);

/**
 * The `host:port` names the listener is reached by, the canonical one first (as the portal's own sign-in
 * callback derives them, portal/callback-url.ts; the data plane may not import the portal).
 */
function listenerHosts(host: string, port: number): string[] {
  const names = LOOPBACK_OR_ANY.has(host)
    ? ['127.0.0.1', 'localhost']
    : [host.includes(':') ? `[${host}]` : host];
  return names.map((name) => `${name}:${port}`);
}

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
  if (listener.publicUrl !== undefined) return listener.publicUrl.replace(/\/+$/, '');
  const [host] = listenerHosts(listener.host, boundPort ?? listener.port);
  return `http://${host ?? `127.0.0.1:${listener.port}`}`;
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
  if (listener.publicUrl !== undefined)
    return `${listener.publicUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;
  const hosts = listenerHosts(listener.host, boundPort ?? listener.port);
  const host = hosts.find((h) => h === requestHost?.toLowerCase()) ?? hosts[0];
  return `http://${host}${CALLBACK_PATH}`;
}
