// Budget counters in this process. Every operation runs synchronously to completion, so a reserve is
// atomic across every counter of a call, as the Redis script is. Expired counters and release marks are
// dropped on access and by a periodic sweep.
import type { BudgetStore, StoreReserveResult, StoredCounter } from './store.js';

export interface MemoryBudgetStoreOptions {
  /** Milliseconds now (default Date.now); only expiry reads it. */
  readonly now?: () => number;
  /** Period of the sweep of expired entries in ms (default 60,000; 0 disables the timer). */
  readonly sweepIntervalMs?: number;
}

interface Entry {
  value: number;
  expiresAt: number;
}

export class MemoryBudgetStore implements BudgetStore {
  readonly #counters = new Map<string, Entry>();
  readonly #released = new Map<string, number>();
  readonly #now: () => number;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(options: MemoryBudgetStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
    const every = options.sweepIntervalMs ?? 60_000;
    if (every > 0) {
      this.#timer = setInterval(() => this.sweep(), every);
      this.#timer.unref();
    }
  }

  reserve(counters: readonly StoredCounter[], amountMinor: number): Promise<StoreReserveResult> {
    const now = this.#now();
    for (const [index, c] of counters.entries()) {
      const used = this.#live(c.key, now)?.value ?? 0;
      if (used + amountMinor > c.limitMinor)
        return Promise.resolve({ ok: false, index, usedMinor: used });
    }
    for (const c of counters) {
      const entry = this.#live(c.key, now);
      const expiresAt = now + c.ttlMs;
      if (entry) {
        entry.value += amountMinor;
        entry.expiresAt = expiresAt;
      } else this.#counters.set(c.key, { value: amountMinor, expiresAt });
    }
    return Promise.resolve({ ok: true });
  }

  release(
    reservationId: string,
    counters: readonly Omit<StoredCounter, 'limitMinor'>[],
    amountMinor: number,
    ttlMs: number,
  ): Promise<boolean> {
    const now = this.#now();
    const mark = this.#released.get(reservationId);
    if (mark !== undefined && mark > now) return Promise.resolve(false);
    this.#released.set(reservationId, now + ttlMs);
    for (const c of counters) {
      const entry = this.#live(c.key, now);
      if (!entry) continue;
      entry.value -= amountMinor;
      if (entry.value <= 0) this.#counters.delete(c.key);
    }
    return Promise.resolve(true);
  }

  used(key: string): Promise<number> {
    return Promise.resolve(this.#live(key, this.#now())?.value ?? 0);
  }

  /** Drops expired counters and release marks; returns how many were dropped. */
  sweep(): number {
    const now = this.#now();
    let dropped = 0;
    for (const [key, entry] of this.#counters)
      if (entry.expiresAt <= now) {
        this.#counters.delete(key);
        dropped++;
      }
    for (const [id, expiresAt] of this.#released)
      if (expiresAt <= now) {
        this.#released.delete(id);
        dropped++;
      }
    return dropped;
  }

  close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#counters.clear();
    this.#released.clear();
    return Promise.resolve();
  }

  #live(key: string, now: number): Entry | undefined {
    const entry = this.#counters.get(key);
    if (entry && entry.expiresAt <= now) {
      this.#counters.delete(key);
      return undefined;
    }
    return entry;
  }
}
