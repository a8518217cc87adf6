// Keys from an OpenID provider: OIDC discovery document → jwks_uri → JWKS, cached in memory.
// - Keys are refreshed when older than cacheMaxAgeMs, and on an unknown kid at most once per cooldownMs.
// - A failed refresh keeps the cached keys usable for staleIfErrorMs beyond cacheMaxAgeMs; after that
//   every token is rejected with JWKS_UNAVAILABLE (fail closed) until the provider answers again.
// - Fetch attempts (successful or not) are spaced by cooldownMs, so an outage is not amplified.
// - Keys are only ever obtained from the configured URLs; JOSE headers (jku, x5u, jwk, x5c) are never
//   consulted.
import type { JWK } from 'jose';
import { AuthError } from './errors.js';
import { fetchJson, type FetchFn } from './fetch-json.js';
import { matches, publicOnly, type KeyEntry, type KeyQuery, type KeySource } from './key-entry.js';

export interface RemoteKeySetOptions {
  /** Issuer the discovery document must declare (exact string match). */
  issuer: string;
  /** OIDC discovery URL; when absent, `jwksUrl` is used directly (no discovery). */
  discoveryUrl?: string;
  jwksUrl?: string;
  timeoutMs: number;
  cacheMaxAgeMs: number;
  cooldownMs: number;
  staleIfErrorMs: number;
  maxResponseBytes: number;
  fetch?: FetchFn;
  /** Milliseconds since the epoch. */
  clock?: () => number;
  /** Called with every refresh failure (messages carry no secrets), e.g. for logging. */
  onError?: (error: AuthError) => void;
}

export interface RemoteKeySet extends KeySource {
  /** Fetches discovery + JWKS now (ignores cooldown). Rejects with JWKS_UNAVAILABLE on failure. */
  refresh(): Promise<void>;
}

const MAX_KEYS = 100;
const ASYMMETRIC_KTY = new Set(['RSA', 'EC', 'OKP']);

function parseJwks(body: unknown): KeyEntry[] {
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new AuthError('JWKS_UNAVAILABLE', 'JWKS has no "keys" array');
  const entries: KeyEntry[] = [];
  for (const raw of keys.slice(0, MAX_KEYS)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const jwk = raw as JWK;
    // Symmetric keys are never taken from a remote set (that would enable HS* confusion).
    if (typeof jwk.kty !== 'string' || !ASYMMETRIC_KTY.has(jwk.kty)) continue;
    const pub = publicOnly(jwk);
    if (!pub) continue;
    const kid = typeof jwk.kid === 'string' ? jwk.kid : undefined;
    const alg = typeof jwk.alg === 'string' ? jwk.alg : undefined;
    entries.push({ kid, alg, jwk: pub, imported: new Map() });
  }
  return entries;
}

export function createRemoteKeySet(options: RemoteKeySetOptions): RemoteKeySet {
  const doFetch: FetchFn = options.fetch ?? ((url, init) => fetch(url, init));
  const clock = options.clock ?? Date.now;
  const fetchOpts = {
    fetch: doFetch,
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxResponseBytes,
  };
  if (!options.discoveryUrl && !options.jwksUrl)
    throw new AuthError('CONFIG_INVALID', 'a discovery URL or a JWKS URL is required');

  let keys: KeyEntry[] | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  let inflight: Promise<void> | undefined;

  async function resolveJwksUrl(): Promise<string> {
    if (!options.discoveryUrl) return options.jwksUrl as string;
    const doc = await fetchJson(options.discoveryUrl, 'discovery document', fetchOpts);
    if (typeof doc !== 'object' || doc === null)
      throw new AuthError('JWKS_UNAVAILABLE', 'discovery document is not an object');
    const { issuer, jwks_uri: jwksUri } = doc as { issuer?: unknown; jwks_uri?: unknown };
    if (issuer !== options.issuer)
      throw new AuthError(
        'JWKS_UNAVAILABLE',
        'discovery document "issuer" does not equal the configured issuer',
      );
    if (typeof jwksUri !== 'string')
      throw new AuthError('JWKS_UNAVAILABLE', 'discovery document has no "jwks_uri"');
    return jwksUri;
  }

  async function load(): Promise<void> {
    lastAttemptAt = clock();
    try {
      const jwksUrl = await resolveJwksUrl();
      const next = parseJwks(await fetchJson(jwksUrl, 'JWKS', fetchOpts));
      // Keep already imported CryptoKeys of keys that did not change.
      const previous = new Map((keys ?? []).map((k) => [JSON.stringify(k.jwk), k]));
      keys = next.map((k) => previous.get(JSON.stringify(k.jwk)) ?? k);
      fetchedAt = clock();
    } catch (err) {
      const error =
        err instanceof AuthError
          ? err
          : new AuthError('JWKS_UNAVAILABLE', 'keys could not be loaded', { cause: err });
      options.onError?.(error);
      throw error;
    }
  }

  function refresh(): Promise<void> {
    inflight ??= load().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  /** Refreshes unless an attempt happened within the cooldown; never throws. Returns whether it ran. */
  async function refreshIfAllowed(): Promise<boolean> {
    if (inflight) {
      await inflight.catch(() => undefined);
      return true;
    }
    if (clock() - lastAttemptAt < options.cooldownMs) return false;
    await refresh().catch(() => undefined);
    return true;
  }

  async function getKeys(query: KeyQuery): Promise<KeyEntry[]> {
    let refreshed = false;
    if (keys === undefined || clock() - fetchedAt >= options.cacheMaxAgeMs) {
      refreshed = await refreshIfAllowed();
    }
    if (keys === undefined)
      throw new AuthError(
        'JWKS_UNAVAILABLE',
        'signing keys of the identity provider are unavailable',
      );
    if (clock() - fetchedAt >= options.cacheMaxAgeMs + options.staleIfErrorMs)
      throw new AuthError(
        'JWKS_UNAVAILABLE',
        'signing keys of the identity provider could not be refreshed and are too old to trust',
      );
    let found = keys.filter((k) => matches(k, query));
    if (found.length === 0 && !refreshed && (await refreshIfAllowed())) {
      found = keys.filter((k) => matches(k, query));
    }
    if (found.length === 0)
      throw new AuthError(
        'KEY_NOT_FOUND',
        'no signing key of the identity provider matches the token',
      );
    return found;
  }

  return { getKeys, refresh };
}
