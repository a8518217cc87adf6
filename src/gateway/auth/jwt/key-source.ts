// Builds the key source a verifier uses from configuration: static keys, OIDC discovery, or both (static
// keys are consulted first; the provider's only when none of them fits).
import { AuthError } from './errors.js';
import type { JwtConfig } from '../../../config/gateway-jwt.js';
import { createRemoteKeySet } from './discovery.js';
import type { FetchFn } from './fetch-json.js';
import type { KeySource } from './key-entry.js';
import { createStaticKeySource } from './static-keys.js';

export interface KeySourceDeps {
  fetch?: FetchFn;
  clock?: () => number;
  onError?: (error: AuthError) => void;
  onLoaded?: () => void;
}

export function createKeySource(config: JwtConfig, deps: KeySourceDeps = {}): KeySource {
  const sources: KeySource[] = [];
  if (config.staticKeys.length > 0) sources.push(createStaticKeySource(config.staticKeys));
  if (config.discovery) {
    const d = config.discovery;
    sources.push(
      createRemoteKeySet({
        issuer: config.issuer,
        discoveryUrl: d.url,
        timeoutMs: d.timeoutMs,
        cacheMaxAgeMs: d.cacheMaxAgeMs,
        cooldownMs: d.cooldownMs,
        staleIfErrorMs: d.staleIfErrorMs,
        maxResponseBytes: d.maxResponseBytes,
        ...deps,
      }),
    );
  }
  const [only] = sources;
  if (sources.length === 1 && only) return only;
  return async (header, token) => {
    let lastError: unknown = new AuthError('KEY_NOT_FOUND', 'no key matches the token');
    for (const source of sources) {
      try {
        return await source(header, token);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error; // several candidates: the verifier tries them
        lastError = error;
      }
    }
    throw lastError;
  };
}
