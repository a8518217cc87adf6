// An OAuthClientProvider for the official TypeScript SDK client that plays the user's browser without a
// browser: redirectToAuthorization follows the authorization server's redirects with fetch, carrying the
// cookies a browser would (sign-in and consent are cookie-bound), until the redirect to the client's
// redirect URI, whose code and iss it keeps for finishAuth. With the development server's autoLogin no
// page needs answering; the redirect URI is never contacted.
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

export const REDIRECT_URI = 'http://127.0.0.1:1/oauth/callback';

export class BrowserlessOAuthProvider implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  stored: StoredOAuthTokens | undefined;
  verifier = '';
  /** Every authorization URL the client sent the "user" to. */
  readonly authorizations: URL[] = [];
  /** Every token set saved (the first from the code, later ones from refreshes). */
  readonly saved: StoredOAuthTokens[] = [];
  callback: URLSearchParams | undefined;
  private discovery: OAuthDiscoveryState | undefined;

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'toolgate test client',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.client = info;
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
    this.saved.push(tokens);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizations.push(url);
    this.callback = await followToCallback(url, REDIRECT_URI);
  }
}

/**
 * A GET that keeps cookies as a browser would (one jar for every URL it visits; paths and ports are not
 * told apart, which loopback tests do not need) and does not follow redirects.
 */
export function browserlessVisitor(): (url: URL) => Promise<Response> {
  const jar = new Map<string, string>();
  return async (url) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookie === '' ? {} : { cookie },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair !== undefined && at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
    return response;
  };
}

/**
 * GETs `start` and follows redirects (keeping cookies) until one points at `redirectUri`; with `visit`,
 * also requests that URL, as a browser would (a client's loopback callback listener receives it).
 */
export async function followToCallback(
  start: URL,
  redirectUri: string,
  options: { visit?: boolean } = {},
): Promise<URLSearchParams> {
  const visit = browserlessVisitor();
  let next = start;
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await visit(next);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null)
      throw new Error(
        `the authorization server answered ${response.status} at ${next.href}: ${(await response.text()).slice(0, 300)}`,
      );
    next = new URL(location, next);
    if (next.href.startsWith(redirectUri)) {
      if (options.visit === true) await (await fetch(next)).arrayBuffer();
      return next.searchParams;
    }
  }
  throw new Error('too many redirects before the redirect URI');
}
