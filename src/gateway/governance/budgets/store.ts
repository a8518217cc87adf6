// Where budget counters live: this process (memory) or Redis shared by every replica. One `reserve` is
// one atomic, all-or-nothing step over every counter of a call; `release` is idempotent per reservation.

/** One counter as the store sees it. */
export interface StoredCounter {
  /** Key without the deployment prefix. */
  readonly key: string;
  /** The counter may not exceed this (base-currency minor units). */
  readonly limitMinor: number;
  /** How long the key lives from now: until its window ends, plus a margin. */
  readonly ttlMs: number;
}

export type StoreReserveResult =
  | { readonly ok: true }
  /** `index` names the first counter that had no room; `usedMinor` is what it held. */
  | { readonly ok: false; readonly index: number; readonly usedMinor: number };

export interface BudgetStore {
  /** Adds `amountMinor` to every counter if every one stays within its limit; else changes nothing. */
  reserve(counters: readonly StoredCounter[], amountMinor: number): Promise<StoreReserveResult>;
  /**
   * Takes `amountMinor` off every counter, once per `reservationId` (a second release with the same id
   * does nothing); the id is remembered for `ttlMs`. Counters whose window has ended are left alone.
   * Resolves true when this call released, false when it had already been released.
   */
  release(
    reservationId: string,
    counters: readonly Omit<StoredCounter, 'limitMinor'>[],
    amountMinor: number,
    ttlMs: number,
  ): Promise<boolean>;
  /** What a counter holds now (0 when absent); for operators and tests. */
  used(key: string): Promise<number>;
  close(): Promise<void>;
}
