// Where the OpenID Connect provider sends the browser back (the `redirect_uri`): admin.oidc.redirectUrl
// when set; else derived from configuration — admin.publicUrl, or the listener's own address — never from
// the request's Host header, which the client chooses. On a loopback (or every-interface) listener the
// browser may have used 127.0.0.1 or localhost; the request's Host only picks between those two (the
// session binding cookie is per host name), as the development authorization server registers both.
export const CALLBACK_PATH = '/portal/auth/callback';

export interface PortalListener {
  /** admin.host */
  readonly host: string;
  /** admin.port (0: any free port; the bound one is used). */
  readonly port: number;
  /** admin.publicUrl */
  readonly publicUrl?: string | undefined;
}

const LOOPBACK_OR_ANY = new Set(['0.0.0.0', '::', '127.0.0.1', 'localhost']);

/** The `host:port` names the listener is reached by, the canonical one first. */
export function listenerHosts(host: string, port: number): string[] {
  const names = LOOPBACK_OR_ANY.has(host)
    ? ['127.0.0.1', 'localhost']
    : [host.includes(':') ? `[${host}]` : host];
  return names.map((name) => `${name}:${port}`);
}

export function callbackUrl(
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
