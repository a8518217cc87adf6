// Wraps a shared store (Redis) with a circuit breaker and a failure policy, so the gateway keeps
// answering — quickly — when the store is slow or down, and returns to it automatically.
import { CircuitBreaker, type BreakerState } from './circuit-breaker.js';
import { monotonicClock, silentLogger } from './clock.js';
import { noopMetrics, type RateLimitMetrics } from './metrics.js';
import type { Clock, LimitCheck, LimitDecision, RateLimitLogger, RateLimitStore } from './types.js';

/** `fallback`: a local limiter decides; `closed`: refuse (503); `open`: admit unchecked. */
export type StoreFailurePolicy = 'fallback' | 'closed' | 'open';

export interface ResilientStoreOptions {
  readonly primary: RateLimitStore;
  /** Local limiter used by the `fallback` policy. */
  readonly fallback?: RateLimitStore;
  readonly policy: StoreFailurePolicy;
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  readonly clock?: Clock;
  readonly logger?: RateLimitLogger;
  readonly metrics?: RateLimitMetrics;
}

function reasonOf(err: unknown): 'timeout' | 'unavailable' | 'error' {
  const message = err instanceof Error ? err.message : String(err);
  if (/timed? ?out/i.test(message)) return 'timeout';
  if (/writeable|connect|closed|ECONNREFUSED|ECONNRESET|EPIPE/i.test(message)) return 'unavailable';
  return 'error';
}

export class ResilientStore implements RateLimitStore {
  readonly #primary: RateLimitStore;
  readonly #fallback: RateLimitStore | undefined;
  readonly #policy: StoreFailurePolicy;
  readonly #breaker: CircuitBreaker;
  readonly #logger: RateLimitLogger;
  readonly #metrics: RateLimitMetrics;

  constructor(options: ResilientStoreOptions) {
    if (options.policy === 'fallback' && !options.fallback) {
      throw new Error('the fallback policy needs a fallback store');
    }
    this.#primary = options.primary;
    this.#fallback = options.fallback;
    this.#policy = options.policy;
    this.#logger = options.logger ?? silentLogger;
    this.#metrics = options.metrics ?? noopMetrics;
    this.#breaker = new CircuitBreaker({
      failureThreshold: options.failureThreshold,
      cooldownMs: options.cooldownMs,
      clock: options.clock ?? monotonicClock,
      onStateChange: (state, previous) => this.#onStateChange(state, previous),
    });
  }

  get breakerState(): BreakerState {
    return this.#breaker.state;
  }

  consume(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    return this.#decide(checks, 'consume');
  }

  peek(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    return this.#decide(checks, 'peek');
  }

  async #decide(checks: readonly LimitCheck[], op: 'consume' | 'peek'): Promise<LimitDecision> {
    if (!this.#breaker.tryAcquire()) return this.#degrade(checks, op);
    try {
      const decision = await this.#primary[op](checks);
      this.#breaker.success();
      return decision;
    } catch (err) {
      const reason = reasonOf(err);
      this.#metrics.storeError(reason);
      this.#logger.warn(
        { reason, error: err instanceof Error ? err.message : String(err), policy: this.#policy },
        'rate-limit store failed; applying failure policy',
      );
      this.#breaker.failure();
      return this.#degrade(checks, op);
    }
  }

  async close(): Promise<void> {
    await this.#primary.close();
    await this.#fallback?.close();
  }

  async #degrade(checks: readonly LimitCheck[], op: 'consume' | 'peek'): Promise<LimitDecision> {
    if (this.#policy === 'fallback' && this.#fallback) {
      const d = await this.#fallback[op](checks);
      return { ...d, degraded: 'fallback' };
    }
    const results = checks.map((check) => ({ check, remaining: check.limit, resetMs: 0 }));
    if (this.#policy === 'open') return { allowed: true, checks: results, degraded: 'fail-open' };
    return { allowed: false, checks: results, degraded: 'fail-closed' };
  }

  #onStateChange(state: BreakerState, previous: BreakerState): void {
    this.#metrics.breakerState(state);
    const entry = { state, previous, policy: this.#policy };
    if (state === 'open') this.#logger.warn(entry, 'rate-limit store circuit opened');
    else this.#logger.info(entry, `rate-limit store circuit ${state}`);
  }
}
