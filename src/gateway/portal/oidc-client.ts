// The portal's OpenID Connect relying party: authorization code flow with PKCE (S256), state and nonce.
// Discovery and keys go through the gateway's bounded, HTTPS-or-loopback fetch (auth/jwt); the ID token
// is verified with the gateway's JWT core (alg allow-list, iss exact, aud = client id, exp) plus nonce.
import { createHash, randomBytes } from 'node:crypto';
import type { AdminOidcConfig } from '../../config/admin-portal.js';
import { AuthError } from '../auth/jwt/errors.js';
import { fetchJson, type FetchFn } from '../auth/jwt/fetch-json.js';
import { createRemoteKeySet, type RemoteKeySet } from '../auth/jwt/discovery.js';
import { assertSecureUrl } from '../auth/jwt/secure-url.js';
import { checkSubject } from '../auth/jwt/subject.js';
import { verifyJwtCore } from '../auth/jwt/verify.js';

const TIMEOUT_MS = 5000;
const MAX_BYTES = 256 * 1024;

interface ProviderMetadata {
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly keys: RemoteKeySet;
}

/** What the browser is sent to, and what must be kept (server-side) until it comes back. */
export interface AuthorizationStart {
  readonly url: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export interface SignedInUser {
  readonly subject: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

export interface OidcClient {
  start(redirectUrl: string): Promise<AuthorizationStart>;
  finish(input: {
    code: string;
    redirectUrl: string;
    nonce: string;
    codeVerifier: string;
  }): Promise<SignedInUser>;
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function random(): string {
  return randomBytes(32).toString('base64url');
}

function failed(message: string, cause?: unknown): AuthError {
  return new AuthError('JWKS_UNAVAILABLE', message, cause === undefined ? undefined : { cause });
}

export function createOidcClient(
  config: AdminOidcConfig,
  deps: { fetch?: FetchFn; clock?: () => number } = {},
): OidcClient {
  const doFetch: FetchFn = deps.fetch ?? ((url, init) => fetch(url, init));
  const clock = deps.clock ?? Date.now;
  const discoveryUrl =
    config.discoveryUrl ?? `${config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let metadata: Promise<ProviderMetadata> | undefined;

  async function discover(): Promise<ProviderMetadata> {
    const doc = await fetchJson(discoveryUrl, 'discovery document', {
      fetch: doFetch,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
    });
    const d = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
    if (d.issuer !== config.issuer)
      throw failed('discovery document "issuer" does not equal the configured issuer');
    const endpoints = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;
    for (const name of endpoints) {
      if (typeof d[name] !== 'string') throw failed(`discovery document has no "${name}"`);
      assertSecureUrl(d[name]);
    }
    const methods = d.code_challenge_methods_supported;
    if (Array.isArray(methods) && !methods.includes('S256'))
      throw failed('the provider does not support PKCE with S256');
    return {
      authorizationEndpoint: d.authorization_endpoint as string,
      tokenEndpoint: d.token_endpoint as string,
      keys: createRemoteKeySet({
        issuer: config.issuer,
        jwksUrl: d.jwks_uri as string,
        timeoutMs: TIMEOUT_MS,
        cacheMaxAgeMs: 10 * 60_000,
        cooldownMs: 5_000,
        staleIfErrorMs: 60 * 60_000,
        maxResponseBytes: MAX_BYTES,
        fetch: doFetch,
        clock,
      }),
    };
  }

  function provider(): Promise<ProviderMetadata> {
    metadata ??= discover().catch((error: unknown) => {
      metadata = undefined; // try again on the next sign-in
      throw error;
    });
    return metadata;
  }

  return {
    async start(redirectUrl) {
      const { authorizationEndpoint } = await provider();
      const state = random();
      const nonce = random();
      const codeVerifier = random();
      const url = new URL(authorizationEndpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('redirect_uri', redirectUrl);
      url.searchParams.set('scope', config.scopes.join(' '));
      url.searchParams.set('state', state);
      url.searchParams.set('nonce', nonce);
      url.searchParams.set('code_challenge', pkceChallenge(codeVerifier));
      url.searchParams.set('code_challenge_method', 'S256');
      return { url: url.toString(), state, nonce, codeVerifier };
    },

    async finish({ code, redirectUrl, nonce, codeVerifier }) {
      const { tokenEndpoint, keys } = await provider();
      const body = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUrl,
        code_verifier: codeVerifier,
      });
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      };
      if (config.clientSecret === undefined) body.set('client_id', config.clientId);
      else
        headers.authorization = `Basic ${Buffer.from(
          `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`,
        ).toString('base64')}`;
      let res: Response;
      try {
        res = await doFetch(tokenEndpoint, {
          method: 'POST',
          redirect: 'error',
          headers,
          body: body.toString(),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw failed('the token endpoint could not be reached', error);
      }
      const text = await res.text();
      if (text.length > MAX_BYTES) throw failed('the token response is too large');
      if (res.status !== 200)
        throw failed(`the token endpoint answered HTTP ${res.status}${oauthErrorOf(text)}`);
      let idToken: unknown;
      try {
        idToken = (JSON.parse(text) as { id_token?: unknown }).id_token;
      } catch (error) {
        throw failed('the token response is not JSON', error);
      }
      if (typeof idToken !== 'string') throw failed('the token response has no id_token');
      const payload = await verifyJwtCore(idToken, keys, {
        issuer: config.issuer,
        audience: config.clientId,
        algorithms: config.algorithms,
        clockToleranceSeconds: 60,
        maxTokenBytes: 16 * 1024,
        requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
        clock,
      });
      if (payload.nonce !== nonce)
        throw new AuthError('CLAIM_INVALID', 'the "nonce" claim does not match this sign-in');
      return { subject: checkSubject(payload.sub), claims: payload };
    },
  };
}

/** The OAuth error code and description of a failed token response (RFC 6749 §5.2), for the log line. */
function oauthErrorOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; error_description?: unknown };
    if (typeof body.error !== 'string') return '';
    const description =
      typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 200)}` : '';
    return ` (${body.error.slice(0, 64)}${description})`;
  } catch {
    return '';
  }
}
