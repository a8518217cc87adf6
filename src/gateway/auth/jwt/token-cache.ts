// Cache of verified tokens keyed by the presented token, so a repeated token skips hashing and signature
// verification (the map holds tokens only as long as they would be accepted anyway). An entry lives until
// min(token exp, insertion + maxAgeMs); expired entries are never returned. Bounded LRU (a Map's insertion
// order; a hit re-inserts the entry).
import { createHash } from 'node:crypto';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export interface TokenCacheOptions {
  maxEntries: number;
  maxAgeMs: number;
  clock?: () => number;
}

export interface TokenCache<V> {
  get(token: string): V | undefined;
  /** `expiresAtMs`: the token's own expiry in epoch milliseconds. */
  set(token: string, value: V, expiresAtMs: number): void;
  readonly size: number;
  clear(): void;
}

export function createTokenCache<V>(options: TokenCacheOptions): TokenCache<V> {
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(token) {
      const entry = entries.get(token);
      if (!entry) return undefined;
      entries.delete(token);
      if (clock() >= entry.until) return undefined;
      entries.set(token, entry);
      return entry.value;
    },
    set(token, value, expiresAtMs) {
      if (options.maxEntries <= 0 || options.maxAgeMs <= 0) return;
      const until = Math.min(expiresAtMs, clock() + options.maxAgeMs);
      if (until <= clock()) return;
      entries.delete(token);
      entries.set(token, { value, until });
      while (entries.size > options.maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}
