// Identity mode delegation (issue 28): each call to an upstream MCP server carries the token the calling
// user got at that upstream's own authorization server — never the gateway's credentials, never another
// user's token. The token is looked up by the verified subject of the caller's user token (the gatekeeper
// verified it; nothing the client sends otherwise names the user). A stored token that is still good is
// used; one that has expired is refreshed first (once at a time per user and backend on this replica);
// without one, or when the server refuses the refresh, the answer is the sign-in the user must complete
// (the portal's connect page, urls.ts). An upstream 401 on a delegated call drops the token: `rejected`.
import type { DelegationConfig } from '../../../config/gateway-federation.js';
import type { Database } from '../../../shared/db/types.js';
import type { Logger } from '../../../shared/log/logger.js';
import type { Caller } from '../../caller.js';
import { GatewayError } from '../../errors.js';
import type { UpstreamCredentials, UpstreamIdentity } from '../contracts.js';
import { TokenCipher, type DelegatedTokens } from './token-cipher.js';
import { DelegatedTokenStore, type StoredTokens } from './token-store.js';
import {
  AuthorizationServerUnavailable,
  GrantRefused,
  upstreamAuthorizationServer,
  type UpstreamAuthorizationServer,
} from './upstream-as.js';

/**
 * A token this close to its expiry is refreshed before use: the call that carries it must still reach
 * the upstream (and the upstream's clock may run ahead of ours).
 */
export const REFRESH_SKEW_MS = 30_000;

export interface DelegationOptions {
  readonly db: Database;
  /** gateway.federation.tokenKey */
  readonly tokenKey: string;
  /** The backends in identity mode delegation, by name, with their settings. */
  readonly backends: ReadonlyMap<string, DelegationConfig>;
  /** The connect page of a backend (urls.ts connectUrl with the admin listener). */
  connectUrl(backend: string): string;
  readonly logger?: Logger | undefined;
  readonly clock?: (() => number) | undefined;
  /** The client of a backend's authorization server (tests may replace it). */
  readonly authorizationServer?:
    ((backend: string, config: DelegationConfig) => UpstreamAuthorizationServer) | undefined;
}

/** The upstream identity for delegation backends, and what the call path tells it back. */
export interface DelegationProvider extends UpstreamIdentity {
  /**
   * The upstream answered 401/403 to a call carrying these headers (UpstreamError reason
   * 'unauthorized'): the token is no longer good, so it is dropped and the user's next call asks them to
   * sign in again. Only the token that was sent is dropped (a newer one stored meanwhile stays).
   * Whether a stored token was dropped.
   */
  rejected(
    caller: Caller,
    backend: string,
    sentHeaders: Readonly<Record<string, string>>,
  ): Promise<boolean>;
  /** The user's stored tokens (portal connections page, disconnect, tests). */
  readonly store: DelegatedTokenStore;
  readonly cipher: TokenCipher;
  /** The backend's authorization server client (the connect routes share it). */
  authorizationServer(backend: string): UpstreamAuthorizationServer;
}

export function delegationProvider(options: DelegationOptions): DelegationProvider {
  const clock = options.clock ?? Date.now;
  const cipher = new TokenCipher(options.tokenKey);
  const store = new DelegatedTokenStore(options.db, cipher, clock);
  const makeServer =
    options.authorizationServer ?? ((b, c) => upstreamAuthorizationServer(b, c, clock));
  const servers = new Map<string, UpstreamAuthorizationServer>();
  const refreshing = new Map<string, Promise<UpstreamCredentials>>();

  function configOf(backend: string): DelegationConfig {
    const config = options.backends.get(backend);
    if (config === undefined)
      throw new Error(`backend ${backend} does not use identity mode delegation`);
    return config;
  }

  function authorizationServer(backend: string): UpstreamAuthorizationServer {
    let server = servers.get(backend);
    if (server === undefined) {
      server = makeServer(backend, configOf(backend));
      servers.set(backend, server);
    }
    return server;
  }

  function subjectOf(caller: Caller, backend: string): string {
    if (caller.user === null)
      throw new GatewayError(
        'FORBIDDEN',
        `The tools of ${backend} act on the user's own account there: a call without a signed-in user (no user token) cannot use them. Sign in and call again.`,
        { backend, reason: 'USER_TOKEN_REQUIRED' },
      );
    return caller.user.subject;
  }

  /**
   * Rows are keyed by subject: the account was connected by the portal user with this subject, and the
   * call's user token must name the same person. Where both say who issued them and they differ (the
   * portal signs in with another provider than the one issuing the gateway's user tokens), the tokens
   * are not used: the same `sub` at two providers need not be one person.
   */
  function checkIssuer(caller: Caller, backend: string, tokens: DelegatedTokens): void {
    const callerIssuer = caller.user?.claims.iss;
    if (tokens.issuer === undefined || typeof callerIssuer !== 'string') return;
    if (callerIssuer === tokens.issuer) return;
    options.logger?.warn(
      { backend, connectedBy: tokens.issuer, tokenIssuer: callerIssuer },
      'delegated token not used: connected through a portal sign-in of another issuer than the call’s user token',
    );
    throw new GatewayError(
      'FORBIDDEN',
      `Your account at ${backend} was connected through a sign-in at another identity provider than the one that issued this call's token, so the gateway does not use it. Ask the operator to sign users in to the portal with the provider that issues the gateway's tokens.`,
      { backend, reason: 'ISSUER_MISMATCH' },
    );
  }

  const fresh = (tokens: DelegatedTokens) =>
    tokens.expiresAt === undefined || tokens.expiresAt - REFRESH_SKEW_MS > clock();

  const bearer = (tokens: DelegatedTokens): UpstreamCredentials => ({
    kind: 'headers',
    headers: { Authorization: `Bearer ${tokens.accessToken}` },
  });

  const signIn = (subject: string, backend: string): UpstreamCredentials => ({
    kind: 'sign-in',
    backend,
    url: options.connectUrl(backend),
    message: `${backend} needs you to sign in to your own account there before the gateway can call it for you. Open the link, sign in, then try again.`,
    elicitationId: cipher.elicitationId(subject, backend),
  });

  async function renew(
    subject: string,
    backend: string,
    stored: StoredTokens,
  ): Promise<UpstreamCredentials> {
    const refreshToken = stored.tokens.refreshToken;
    if (refreshToken === undefined) {
      await store.remove(subject, backend, stored.sealed);
      return signIn(subject, backend);
    }
    let tokens: DelegatedTokens;
    try {
      tokens = await authorizationServer(backend).refresh(refreshToken, stored.tokens);
    } catch (error) {
      if (error instanceof GrantRefused) {
        // Another replica may have refreshed first (a rotated refresh token is good once): its tokens win.
        const now = await store.get(subject, backend);
        if (now !== null && now.sealed !== stored.sealed && fresh(now.tokens))
          return bearer(now.tokens);
        options.logger?.info(
          { backend, error: error.error },
          'delegated token refresh refused: the user is asked to sign in again',
        );
        await store.remove(subject, backend, stored.sealed);
        return signIn(subject, backend);
      }
      const reason = error instanceof Error ? error.message : String(error);
      options.logger?.warn({ backend, reason }, 'delegated token refresh failed');
      if (error instanceof AuthorizationServerUnavailable)
        throw new GatewayError(
          'UPSTREAM_UNAVAILABLE',
          `The authorization server of ${backend} cannot be reached to renew your sign-in there. Try again later.`,
          { backend, reason: 'DELEGATION_REFRESH_UNAVAILABLE' },
        );
      throw error;
    }
    // When another write got there first (a refresh elsewhere, a new sign-in), that row stays; this
    // call still uses the good token it just got.
    const renewed = {
      ...tokens,
      ...(stored.tokens.issuer === undefined ? {} : { issuer: stored.tokens.issuer }),
    };
    await store.replace(subject, backend, stored.sealed, renewed);
    return bearer(renewed);
  }

  const provide = async (caller: Caller, backend: string): Promise<UpstreamCredentials> => {
    configOf(backend);
    const subject = subjectOf(caller, backend);
    const stored = await store.get(subject, backend);
    if (stored === null) return signIn(subject, backend);
    checkIssuer(caller, backend, stored.tokens);
    if (fresh(stored.tokens)) return bearer(stored.tokens);
    const key = JSON.stringify([subject, backend]);
    let pending = refreshing.get(key);
    if (pending === undefined) {
      pending = renew(subject, backend, stored).finally(() => refreshing.delete(key));
      refreshing.set(key, pending);
    }
    return pending;
  };

  return Object.assign(provide, {
    store,
    cipher,
    authorizationServer,
    async rejected(caller: Caller, backend: string, sentHeaders: Readonly<Record<string, string>>) {
      if (caller.user === null) return false;
      const subject = caller.user.subject;
      const sent = Object.entries(sentHeaders).find(
        ([k]) => k.toLowerCase() === 'authorization',
      )?.[1];
      const stored = await store.get(subject, backend);
      if (stored === null || sent !== `Bearer ${stored.tokens.accessToken}`) return false;
      const dropped = await store.remove(subject, backend, stored.sealed);
      if (dropped)
        options.logger?.info(
          { backend },
          'the upstream refused a delegated token: dropped, the user is asked to sign in again',
        );
      return dropped;
    },
  });
}

/** The delegation backends of a configuration: name → settings. */
export function delegationBackends(
  backends: readonly {
    readonly name: string;
    readonly identity: {
      readonly mode: string;
      readonly delegation?: DelegationConfig | undefined;
    };
  }[],
): Map<string, DelegationConfig> {
  const found = new Map<string, DelegationConfig>();
  for (const b of backends)
    if (b.identity.mode === 'delegation' && b.identity.delegation !== undefined)
      found.set(b.name, b.identity.delegation);
  return found;
}
