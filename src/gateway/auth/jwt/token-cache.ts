// Cache of verified tokens keyed by the SHA-256 of the token, so a repeated token skips signature
// verification. An entry lives until min(token exp, insertion + maxAgeMs); expired entries are never
// returned. Bounded LRU (a Map's insertion order; a hit re-inserts the entry).
import { createHash } from 'node:crypto';
import { LruMap } from '../../../shared/lru-map.js';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export interface TokenCacheOptions {
  maxEntries: number;
  maxAgeMs: number;
  clock?: () => number;
}

export interface TokenCache<V> {
  get(tokenHash: string): V | undefined;
  /** `expiresAtMs`: the token's own expiry in epoch milliseconds. */
  set(tokenHash: string, value: V, expiresAtMs: number): void;
  readonly size: number;
  clear(): void;
}

export function createTokenCache<V>(options: TokenCacheOptions): TokenCache<V> {
  const clock = options.clock ?? Date.now;
  const entries = new LruMap<string, { value: V; until: number }>(options.maxEntries);
  return {
    get(tokenHash) {
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (clock() >= entry.until) {
        entries.delete(tokenHash);
        return undefined;
      }
      return entry.value;
    },
    set(tokenHash, value, expiresAtMs) {
      if (options.maxEntries <= 0 || options.maxAgeMs <= 0) return;
      const until = Math.min(expiresAtMs, clock() + options.maxAgeMs);
      if (until <= clock()) return;
      entries.set(tokenHash, { value, until });
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}
