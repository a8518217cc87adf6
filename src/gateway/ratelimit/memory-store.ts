// In-process store: one sliding log per key, in memory bounded by `maxKeys`.
//
// Memory stays bounded under a flood of distinct keys (e.g. many anonymous IPs): expired logs are
// reclaimed on access and by a periodic sweep, and the key space is bounded with two generations
// of Maps (the "hashlru" scheme): new and recently used keys live in `current`; when it holds
// maxKeys/2 keys it becomes `previous` and the old `previous` is dropped whole. A key used in the
// last generation is moved to `current`, so only keys unused for at least maxKeys/2 insertions are
// ever evicted. Every operation is O(1); strict LRU on one Map (delete + re-insert, evict the first
// entry) degrades badly in V8 because iterating from the front walks over deleted slots.
import { decide, isExpired, type LogWindow, type SlidingLog } from './algorithm.js';
import { monotonicClock } from './clock.js';
import type { Clock, LimitCheck, LimitDecision, RateLimitStore } from './types.js';

export interface MemoryStoreOptions {
  /** Upper bound on tracked keys (default 100,000). */
  readonly maxKeys?: number;
  /** Period of the expired-key sweep in ms (default 10,000; 0 disables the timer). */
  readonly sweepIntervalMs?: number;
  readonly clock?: Clock;
  /** Called when a key is evicted to make room; `live` = it still had admissions in its window. */
  readonly onEvict?: (live: boolean) => void;
}

/** A key's sliding log plus its window (one object per key keeps the per-key cost low). */
interface Entry extends SlidingLog {
  windowMs: number;
}

export const DEFAULT_MAX_KEYS = 100_000;

export class MemoryStore implements RateLimitStore {
  #current = new Map<string, Entry>();
  #previous = new Map<string, Entry>();
  readonly #generationSize: number;
  readonly #clock: Clock;
  readonly #onEvict: ((live: boolean) => void) | undefined;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(options: MemoryStoreOptions = {}) {
    this.#generationSize = Math.max(1, Math.floor((options.maxKeys ?? DEFAULT_MAX_KEYS) / 2));
    this.#clock = options.clock ?? monotonicClock;
    this.#onEvict = options.onEvict;
    const every = options.sweepIntervalMs ?? 10_000;
    if (every > 0) {
      this.#timer = setInterval(() => this.sweep(), every);
      this.#timer.unref();
    }
  }

  /** Number of keys currently tracked. */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }

  consume(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    return Promise.resolve(this.consumeSync(checks));
  }

  peek(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    return Promise.resolve(this.consumeSync(checks, false));
  }

  /** The synchronous decision (the memory store never waits); `recording` false: a peek. */
  consumeSync(checks: readonly LimitCheck[], recording = true): LimitDecision {
    const now = this.#clock.now();
    const windows: LogWindow[] = checks.map((c) => ({
      // A peek at a key never seen reads an empty log and keeps nothing.
      log: recording ? this.#entryFor(c, now) : (this.#find(c.key) ?? emptyEntry(c.windowMs)),
      limit: c.limit,
      windowMs: c.windowMs,
    }));
    const verdict = decide(windows, now, recording);
    const results = checks.map((check, i) => {
      const o = verdict.outcomes[i];
      return { check, remaining: o?.remaining ?? 0, resetMs: o?.resetMs ?? 0 };
    });
    const blockingCheck = checks[verdict.blockingIndex];
    const blockingOutcome = verdict.outcomes[verdict.blockingIndex];
    if (verdict.allowed || !blockingCheck || !blockingOutcome) {
      return { allowed: verdict.allowed, checks: results };
    }
    return {
      allowed: false,
      checks: results,
      blocking: { check: blockingCheck, retryAfterMs: blockingOutcome.retryAfterMs },
    };
  }

  /** Removes every key whose log has no live entry. Returns the number removed. */
  sweep(): number {
    const now = this.#clock.now();
    let removed = 0;
    for (const map of [this.#current, this.#previous]) {
      for (const [key, entry] of map) {
        if (isExpired(entry, now, entry.windowMs)) {
          map.delete(key);
          removed++;
        }
      }
    }
    return removed;
  }

  close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#current.clear();
    this.#previous.clear();
    return Promise.resolve();
  }

  #find(key: string): Entry | undefined {
    return this.#current.get(key) ?? this.#previous.get(key);
  }

  #entryFor(check: LimitCheck, now: number): Entry {
    const found = this.#current.get(check.key);
    if (found) {
      found.windowMs = check.windowMs;
      return found;
    }
    const old = this.#previous.get(check.key);
    if (old) this.#previous.delete(check.key);
    const entry: Entry = old ?? emptyEntry(check.windowMs);
    entry.windowMs = check.windowMs;
    this.#current.set(check.key, entry);
    if (this.#current.size >= this.#generationSize) this.#rotate(now);
    return entry;
  }

  /** `current` becomes `previous`; the keys left in the old `previous` are dropped. */
  #rotate(now: number): void {
    const dropped = this.#previous;
    this.#previous = this.#current;
    this.#current = new Map();
    if (this.#onEvict) {
      for (const entry of dropped.values()) this.#onEvict(!isExpired(entry, now, entry.windowMs));
    }
  }
}

function emptyEntry(windowMs: number): Entry {
  return { ts: [], start: 0, size: 0, last: Number.NEGATIVE_INFINITY, windowMs };
}
