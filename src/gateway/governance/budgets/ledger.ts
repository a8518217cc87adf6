// Money budgets (issue 25): a call that moves money reserves its amount, in base-currency minor units,
// against every budget a matching rule imposes, all or nothing, before the backend sees it; the call path
// releases the reservation when the backend refuses the call. Counters are per rule, per user or
// subscription, per calendar day or month in the configured time zone (calendar.ts, counters.ts).
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../errors.js';
import type {
  BudgetLedger,
  BudgetLimit,
  BudgetReservation,
  GovernedCall,
  ReserveOutcome,
} from '../contracts.js';
import { countersFor, type BudgetCounter } from './counters.js';
import type { BudgetStore, StoredCounter } from './store.js';

/** Keys outlive their window by this much, so a replica whose clock is a little behind still finds them. */
export const WINDOW_TTL_MARGIN_MS = 60 * 60 * 1000;

export interface BudgetLedgerLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface BudgetLedgerOptions {
  readonly timeZone: string;
  /** Milliseconds now, for the keys' lifetimes (default Date.now). The windows come from `call.at`. */
  readonly now?: () => number;
  readonly logger?: BudgetLedgerLogger;
}

export class CounterBudgetLedger implements BudgetLedger {
  readonly #store: BudgetStore;
  readonly #timeZone: string;
  readonly #now: () => number;
  readonly #logger: BudgetLedgerLogger | undefined;

  constructor(store: BudgetStore, options: BudgetLedgerOptions) {
    this.#store = store;
    this.#timeZone = options.timeZone;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
  }

  /**
   * Reserves the call's amount against every limit, or none. Calls without money, with a zero amount or
   * without limits reserve nothing (an empty reservation). Throws GatewayError BUDGET_UNAVAILABLE when the
   * store cannot answer: money budgets fail closed (docs/decisions.md, D-241).
   */
  async reserve(call: GovernedCall, limits: readonly BudgetLimit[]): Promise<ReserveOutcome> {
    const amount = call.money?.baseMinor ?? 0;
    if (!call.money || amount === 0 || limits.length === 0)
      return { ok: true, reservation: { id: randomUUID(), amountMinor: 0, limits: [] } };
    checkAmount(amount);
    for (const limit of limits) checkLimit(limit, call.money.baseCurrency);
    const counters = countersFor(call, limits, this.#timeZone);
    let result;
    try {
      result = await this.#store.reserve(this.#stored(counters), amount);
    } catch (error) {
      this.#logger?.warn(
        { callId: call.callId, reason: error instanceof Error ? error.message : String(error) },
        'budget store failed: the call is refused (budgets fail closed)',
      );
      throw new GatewayError(
        'BUDGET_UNAVAILABLE',
        'Money budgets cannot be checked right now, so the call was not made; try again shortly.',
      );
    }
    if (result.ok)
      return { ok: true, reservation: { id: randomUUID(), amountMinor: amount, limits } };
    const blocking = counters[result.index] as BudgetCounter;
    return {
      ok: false,
      limit: blocking.limit,
      remainingMinor: Math.max(0, blocking.limit.limitMinor - result.usedMinor),
      resetsAt: new Date(blocking.window.endMs).toISOString(),
    };
  }

  /**
   * Gives the reservation's amount back, once per reservation id (a second release does nothing). The
   * windows are those of `call.at`, as at the reservation. A store failure is logged, not thrown: the
   * amount then stays counted until its window ends (the safe side for money).
   */
  async release(call: GovernedCall, reservation: BudgetReservation): Promise<void> {
    if (reservation.amountMinor === 0 || reservation.limits.length === 0) return;
    const counters = countersFor(call, reservation.limits, this.#timeZone);
    const stored = this.#stored(counters);
    const markTtl = Math.max(...stored.map((c) => c.ttlMs));
    try {
      await this.#store.release(reservation.id, stored, reservation.amountMinor, markTtl);
    } catch (error) {
      this.#logger?.warn(
        {
          callId: call.callId,
          reservation: reservation.id,
          reason: error instanceof Error ? error.message : String(error),
        },
        'budget release failed: the amount stays counted until its window ends',
      );
    }
  }

  /** What the call's counter of `limit` holds now (minor units): for operators and tests. */
  async used(call: GovernedCall, limit: BudgetLimit): Promise<number> {
    const [counter] = countersFor(call, [limit], this.#timeZone);
    return counter ? this.#store.used(counter.key) : 0;
  }

  #stored(counters: readonly BudgetCounter[]): StoredCounter[] {
    const now = this.#now();
    return counters.map((c) => ({
      key: c.key,
      limitMinor: c.limit.limitMinor,
      ttlMs: Math.max(0, c.window.endMs - now) + WINDOW_TTL_MARGIN_MS,
    }));
  }
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(
      `money.baseMinor must be a non-negative safe integer of minor units (got ${amount})`,
    );
}

function checkLimit(limit: BudgetLimit, baseCurrency: string): void {
  if (!Number.isSafeInteger(limit.limitMinor) || limit.limitMinor < 0)
    throw new RangeError(
      `budget ${limit.ruleId}: limitMinor must be a non-negative safe integer (got ${limit.limitMinor})`,
    );
  if (limit.currency !== baseCurrency)
    throw new RangeError(
      `budget ${limit.ruleId} counts in ${limit.currency} but the call's base currency is ${baseCurrency}`,
    );
}
