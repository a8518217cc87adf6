// The address a browser reaches a listener of ours by, for URLs we hand out (OAuth redirect URIs, links):
// its configured public URL, else its own host and port — never the request's Host header, which the client
// chooses. On a loopback (or every-interface) listener the browser may have used 127.0.0.1 or localhost;
// the request's Host only picks between those two (cookies are per host name). Used by the portal's sign-in
// callback and by the federation's delegation callback and connect links, which the data plane builds
// without importing the portal.

export interface Listener {
  readonly host: string;
  /** 0: any free port (the bound one is used where known). */
  readonly port: number;
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

/** The listener's base URL (no trailing slash): publicUrl, else the canonical or the request's own name. */
export function listenerBaseUrl(
  listener: Listener,
  boundPort?: number,
  requestHost?: string,
): string {
  if (listener.publicUrl !== undefined) return listener.publicUrl.replace(/\/+$/, '');
  const hosts = listenerHosts(listener.host, boundPort ?? listener.port);
  const host = hosts.find((h) => h === requestHost?.toLowerCase()) ?? hosts[0];
  return `http://${host ?? `127.0.0.1:${listener.port}`}`;
}
