// The development authorization server: oidc-provider configured as the MCP authorization specification
// (2025-11-25) expects of an authorization server — authorization code with PKCE (S256, required for every
// client), refresh tokens rotated on every use, open dynamic client registration (RFC 7591), client ID
// metadata documents, resource indicators (RFC 8707) limited to the gateway's own MCP resource, and JWT
// access tokens signed with the development identity provider's persisted key, so the gateway verifies
// them exactly like `toolgate token` tokens and those of any other provider (discovery → JWKS → iss/aud).
// State (clients, grants, sessions, the cookie key) lives in the gateway database (store-adapter.ts), so a
// restart or another replica changes nothing for a signed-in client.
import Provider, { errors, type ProviderClient } from 'oidc-provider';
import type { DevUser } from '../../../config/gateway-auth.js';
import type { Database } from '../../../shared/db/types.js';
import type { DevIdp } from './idp.js';
import { openDevIdpStore } from './store-adapter.js';
import {
  actClaimOf,
  GRANT_ID_CLAIM,
  registerTokenExchange,
  tokenExchangeClientMetadata,
  type TokenExchangeClient,
} from './token-exchange.js';

export interface AuthorizationServerOptions {
  /** `<gateway>/dev-idp`: the issuer of every token, the same as the dev IdP's. */
  readonly issuer: string;
  readonly idp: DevIdp;
  readonly users: readonly DevUser[];
  /** Resources a client may ask tokens for (RFC 8707): the MCP URL and the configured audience. */
  readonly resources: readonly string[];
  /** Scopes of the MCP resource that access tokens may carry (the tool scopes). */
  readonly resourceScopes: readonly string[];
  /** Path of the interaction pages (login, consent), prefix included. */
  readonly interactionPath: string;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  /** Public clients registered at startup (the portal, portal-client.ts): PKCE, no secret. */
  readonly clients?: readonly {
    readonly clientId: string;
    readonly redirectUris: readonly string[];
  }[];
  /**
   * Confidential clients allowed the RFC 8693 token exchange (token-exchange.ts), with the audiences each
   * may ask for: the gateway, for upstreams in identity mode token-exchange.
   */
  readonly exchangeClients?: readonly TokenExchangeClient[];
  /** The gateway database (migrated): the server's state lives in its dev_idp_entries table. */
  readonly db: Database;
  /** Epoch milliseconds for the store's expiry; Date.now unless a test drives time. */
  readonly now?: () => number;
}

export const OIDC_SCOPES = ['openid', 'profile', 'offline_access'] as const;

/** The claims a configured user's tokens carry (besides sub). */
export function userClaims(user: DevUser): Record<string, unknown> {
  return {
    ...(user.claims ?? {}),
    ...(user.name === undefined ? {} : { name: user.name }),
    ...(user.email === undefined ? {} : { email: user.email }),
    preferred_username: user.sub,
  };
}

/**
 * A registered client's `scope` would limit every later request to the scopes it registered with (MCP
 * clients register with the scopes of their first challenge), and a step-up to a tool scope would fail with
 * invalid_scope. In development any client may ask for any scope this server knows; consent still decides.
 */
function withoutClientScope(
  model: string,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  if (model !== 'Client') return payload;
  const { scope: _registered, ...rest } = payload;
  return rest;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * MCP authorization (2025-11-25, Communication Security): every redirect URI is a loopback http URL
 * (127.0.0.1, [::1], localhost) or an https URL. oidc-provider lets a client registered as `native` use
 * plain http on any host it names loopback and custom schemes, and one registered as `web` use http on
 * any host; both would send authorization codes in clear or to another application. Refused with
 * `invalid_redirect_uri` (RFC 7591 §3.2.2: the error code follows from the message's first word).
 */
function checkRedirectUris(value: unknown): void {
  if (!Array.isArray(value)) return; // oidc-provider reports the shape itself
  for (const uri of value) {
    const url = typeof uri === 'string' ? URL.parse(uri) : null;
    if (url === null) continue;
    if (url.protocol === 'https:') continue;
    if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) continue;
    throw new errors.InvalidClientMetadata(
      `redirect_uris must be https URLs or loopback http URLs (127.0.0.1, [::1], localhost): ${url.protocol}//${url.host} is neither`,
    );
  }
}

export async function createAuthorizationServer(
  options: AuthorizationServerOptions,
): Promise<Provider> {
  const store = await openDevIdpStore(options.db, {
    filter: withoutClientScope,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const users = new Map(options.users.map((u) => [u.sub, u]));
  // The clients configured here (the portal) are this deployment's own; every other client — registered
  // (RFC 7591) or named by a client ID metadata document — follows the MCP redirect URI rule.
  const exchangeClients = options.exchangeClients ?? [];
  const ownClients = new Set([
    ...(options.clients ?? []).map((c) => c.clientId),
    ...exchangeClients.map((c) => c.clientId),
  ]);
  const resources = new Set(options.resources);
  const resourceScope = [...new Set(options.resourceScopes)].join(' ');
  const provider = new Provider(options.issuer, {
    jwks: { keys: [options.idp.signingJwk()] },
    adapter: store.adapter,
    // Session and interaction cookies are signed with the key kept in the same store: a sign-in begun
    // before a restart, or on another replica, finishes.
    cookies: { keys: [...store.cookieKeys] },
    routes: { jwks: '/jwks.json' },
    scopes: [...OIDC_SCOPES, ...options.resourceScopes],
    // A configured user's extra claims (e.g. `roles`, which the portal reads for the admin role) travel
    // in ID tokens as in access tokens.
    claims: {
      openid: ['sub', ...new Set(options.users.flatMap((u) => Object.keys(u.claims ?? {})))],
      profile: ['name', 'email', 'preferred_username'],
    },
    clients: [
      ...(options.clients ?? []).map((c) => ({
        client_id: c.clientId,
        redirect_uris: [...c.redirectUris],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        id_token_signed_response_alg: 'ES256',
      })),
      ...tokenExchangeClientMetadata(exchangeClients),
    ],
    findAccount: (_ctx: unknown, id: string) => {
      const user = users.get(id);
      if (user === undefined) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...userClaims(user) }) };
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `${options.interactionPath}/${interaction.uid}`,
    },
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator: (
        _ctx: unknown,
        key: string,
        value: unknown,
        metadata: { client_id?: unknown },
      ) => {
        if (key !== 'redirect_uris') return;
        if (typeof metadata.client_id === 'string' && ownClients.has(metadata.client_id)) return;
        checkRedirectUris(value);
      },
    },
    responseTypes: ['code'],
    // The one signing key is EC P-256: ID tokens (and userinfo) default to ES256, not RS256.
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
    },
    pkce: { required: () => true },
    // Any refresh token is exchanged once: each refresh answers a new one (OAuth 2.1 §4.3.1 for
    // public clients), so a stolen refresh token is useless after the legitimate client's next refresh.
    rotateRefreshToken: true,
    // Codes and tokens are not tied to the browser session that granted them: the sign-in pages keep no
    // lasting session a client would need (autoLogin signs in afresh), and a code lives 60 s anyway.
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx: unknown, client: ProviderClient) =>
      client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: () => true,
    // Development: any client may register (RFC 7591 without an initial access token).
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource still gets a token for the MCP endpoint (not an opaque one
        // for the userinfo endpoint), so every token the gateway sees is an audience-bound JWT.
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) =>
          oneOf ?? options.resources[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (!resources.has(resource))
            throw new errors.InvalidTarget(`${resource} is not a resource of this gateway`);
          return {
            audience: resource,
            scope: resourceScope,
            accessTokenFormat: 'jwt',
            accessTokenTTL: options.accessTokenTtlSeconds,
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    // The user's profile claims in the access token too, so the gateway can forward them (the same
    // claims `toolgate token` puts into the tokens it mints); the grant it came from, so a token exchange
    // can tell a revoked grant's token (token-exchange.ts); and an exchanged token's actor (`act`).
    extraTokenClaims: (
      _ctx: unknown,
      token: { accountId?: string; kind?: string; grantId?: string },
    ) => {
      if (token.kind !== 'AccessToken' || token.accountId === undefined) return undefined;
      const user = users.get(token.accountId);
      if (user === undefined) return undefined;
      const act = actClaimOf(token);
      return {
        ...userClaims(user),
        ...(token.grantId === undefined ? {} : { [GRANT_ID_CLAIM]: token.grantId }),
        ...(act === undefined ? {} : { act }),
      };
    },
    ttl: {
      AccessToken: options.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: options.refreshTokenTtlSeconds,
      Interaction: 600,
      Session: 86400,
      Grant: options.refreshTokenTtlSeconds,
    },
  });
  if (exchangeClients.length > 0)
    registerTokenExchange(provider, {
      issuer: options.issuer,
      idp: options.idp,
      subjectAudiences: options.resources,
      users: new Set(users.keys()),
      clients: exchangeClients,
      accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    });
  return provider;
}
