// An upstream MCP server's own authorization server for the delegation tests: oidc-provider (a certified
// OpenID provider no one here wrote), separate from the gateway's development provider, with two
// accounts (alice and bob), the built-in development sign-in and consent forms, one confidential client
// (the gateway, client_secret_basic, PKCE required), rotating refresh tokens and token revocation.
// Access tokens are opaque; `whoseToken` tells whose one is (what the upstream resource server would
// learn by introspection).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderClient } from 'oidc-provider';

/** The part of oidc-provider's token model read here (src/types/oidc-provider.d.ts declares no models). */
interface TokenModels {
  readonly AccessToken: { find(token: string): Promise<{ accountId?: string } | undefined> };
}

export const UPSTREAM_CLIENT_ID = 'toolgate-gateway';
export const UPSTREAM_CLIENT_SECRET = 'upstream-client-secret-for-the-gateway';
export const UPSTREAM_ACCOUNTS = ['alice', 'bob'] as const;

export interface UpstreamAuthorizationServer {
  /** http://localhost:<port> (a host name apart from the gateway's 127.0.0.1, as cookies are per host). */
  readonly issuer: string;
  readonly provider: Provider;
  /** The account an access token was issued to; undefined when unknown, expired or revoked. */
  whoseToken(accessToken: string): Promise<string | undefined>;
  /** RFC 7009 revocation at the server's endpoint, as the gateway's client. */
  revoke(token: string, hint: 'refresh_token' | 'access_token'): Promise<void>;
  /** The account holding a live access token, synchronously (a resource server's check). */
  holderOf(accessToken: string): string | undefined;
  /** How many refresh grants the server answered. */
  readonly refreshes: number;
  close(): Promise<void>;
}

export async function startUpstreamAuthorizationServer(options: {
  /** The gateway's delegation callback(s), registered as the client's redirect URIs. */
  readonly redirectUris: readonly string[];
  readonly accessTokenTtlSeconds?: number;
}): Promise<UpstreamAuthorizationServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: UPSTREAM_CLIENT_ID,
        client_secret: UPSTREAM_CLIENT_SECRET,
        redirect_uris: [...options.redirectUris],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    findAccount: (_ctx: unknown, id: string) =>
      (UPSTREAM_ACCOUNTS as readonly string[]).includes(id)
        ? { accountId: id, claims: () => ({ sub: id }) }
        : undefined,
    features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
    // A refresh token for every code of a client allowed the grant (not only with offline_access).
    issueRefreshToken: (_ctx: unknown, client: ProviderClient) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    pkce: { required: () => true },
    scopes: ['openid', 'offline_access'],
    ttl: { AccessToken: options.accessTokenTtlSeconds ?? 3600 },
    cookies: { keys: ['upstream-as-cookie-key-for-tests-only'] },
  });
  // Opaque access tokens are their jti: who holds which, as the resource server would learn by
  // introspection, kept synchronously for request-time checks (revoked or expired ones drop out).
  const holders = new Map<string, { account: string; expiresAt: number }>();
  provider.on('access_token.saved', (...args: unknown[]) => {
    const token = args[0] as { jti: string; accountId?: string; iat?: number; expiration?: number };
    if (token.accountId !== undefined)
      holders.set(token.jti, {
        account: token.accountId,
        expiresAt:
          (token.iat === undefined ? Date.now() : token.iat * 1000) +
          (token.expiration ?? 0) * 1000,
      });
  });
  provider.on('access_token.destroyed', (...args: unknown[]) => {
    holders.delete((args[0] as { jti: string }).jti);
  });
  let refreshes = 0;
  provider.on('grant.success', (ctx) => {
    if (
      (ctx as { oidc?: { params?: { grant_type?: string } } }).oidc?.params?.grant_type ===
      'refresh_token'
    )
      refreshes += 1;
  });
  server.on('request', provider.callback());
  return {
    issuer,
    provider,
    get refreshes() {
      return refreshes;
    },
    holderOf(accessToken) {
      const holder = holders.get(accessToken);
      return holder !== undefined && holder.expiresAt > Date.now() ? holder.account : undefined;
    },
    async whoseToken(accessToken) {
      const found = await (provider as unknown as TokenModels).AccessToken.find(accessToken);
      return found?.accountId;
    },
    async revoke(token, hint) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${UPSTREAM_CLIENT_ID}:${UPSTREAM_CLIENT_SECRET}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token, token_type_hint: hint }).toString(),
      });
      if (response.status !== 200) throw new Error(`revocation answered ${response.status}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
