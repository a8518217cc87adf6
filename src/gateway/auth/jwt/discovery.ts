// Keys from an OpenID provider: OIDC discovery document → jwks_uri → JWKS, held as a jose local key set
// (jose selects and imports the key for each token). What stays here is when to fetch, which jose's
// createRemoteJWKSet cannot be told (measured in bench/auth/jwks-outage.ts: during an outage it refuses
// every token once its cache is old, and asks the failing provider each time):
// - Keys are refreshed when older than cacheMaxAgeMs, and on an unknown kid at most once per cooldownMs.
// - A failed refresh keeps the cached keys usable for staleIfErrorMs beyond cacheMaxAgeMs; after that
//   every token is rejected with JWKS_UNAVAILABLE (fail closed) until the provider answers again.
// - Fetch attempts (successful or not) are spaced by cooldownMs, so an outage is not amplified and no
//   request waits for a provider that has just failed.
// - Concurrent refreshes share one fetch; time is the injected clock's.
// - Keys are only ever obtained from the configured URLs through the bounded fetch (fetch-json.ts); JOSE
//   headers (jku, x5u, jwk, x5c) are never consulted.
import { createLocalJWKSet, type LocalJWKSet } from 'jose';
import { AuthError } from './errors.js';
import { fetchJson, type FetchFn } from './fetch-json.js';
import { publicKeySet, selectKey, type KeySource } from './key-entry.js';

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
  /** Called after every successful refresh (discovery document and JWKS fetched and read). */
  onLoaded?: () => void;
}

export interface RemoteKeySet extends KeySource {
  /** Fetches discovery + JWKS now (ignores cooldown). Rejects with JWKS_UNAVAILABLE on failure. */
  refresh(): Promise<void>;
}

export function createRemoteKeySet(options: RemoteKeySetOptions): RemoteKeySet {
  const fetchOptions = {
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxResponseBytes,
  } satisfies Parameters<typeof fetchJson>[2];
  const clock = options.clock ?? Date.now;
  if (!options.discoveryUrl && !options.jwksUrl)
    throw new AuthError('CONFIG_INVALID', 'a discovery URL or a JWKS URL is required');

  let keys: LocalJWKSet | undefined;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  let inflight: Promise<void> | undefined;

  async function resolveJwksUrl(): Promise<string> {
    if (!options.discoveryUrl) return options.jwksUrl as string;
    const doc = await fetchJson(options.discoveryUrl, 'discovery document', fetchOptions);
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
      const jwks = await fetchJson(await resolveJwksUrl(), 'JWKS', fetchOptions);
      keys = createLocalJWKSet(publicKeySet(jwks));
      fetchedAt = clock();
      options.onLoaded?.();
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

  const NOT_FOUND = 'no signing key of the identity provider matches the token';
  const select: KeySource = async (header) => {
    let refreshed = false;
    if (keys === undefined || clock() - fetchedAt >= options.cacheMaxAgeMs)
      refreshed = await refreshIfAllowed();
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
    try {
      return await selectKey(keys, header, NOT_FOUND);
    } catch (error) {
      // An unknown kid: the provider may have rotated its keys; look once more (cooldown permitting).
      const unknown = error instanceof AuthError && error.code === 'KEY_NOT_FOUND';
      if (!unknown || refreshed || !(await refreshIfAllowed())) throw error;
      return selectKey(keys, header, NOT_FOUND);
    }
  };
  return Object.assign(select, { refresh });
}
