// A Map bounded to a number of entries, the least recently used evicted first: insertion order is the
// use order, and a hit moves its entry to the end. For the caches on the request path (verified tokens,
// assembled tools/list pages).
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(private readonly maxEntries: number) {}

  /** The value, marked as the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Stores the value as the most recently used, then evicts the oldest beyond the bound. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
