// Counters the rate limiter reports through; the gateway bridges them to prom-client.
import type { BreakerState } from './circuit-breaker.js';

export type DecisionOutcome = 'allowed' | 'rejected' | 'unavailable';
/** Who decided: the configured store, or the failure policy while it was unavailable. */
export type DecisionSource = 'memory' | 'redis' | 'fallback' | 'fail-open' | 'fail-closed';

export interface RateLimitMetrics {
  decision(outcome: DecisionOutcome, source: DecisionSource): void;
  storeError(reason: 'timeout' | 'unavailable' | 'error'): void;
  breakerState(state: BreakerState): void;
  /** A key was evicted from a full memory store; `live` = it still had admissions in its window. */
  keyEvicted(live: boolean): void;
}

export const noopMetrics: RateLimitMetrics = {
  decision: () => undefined,
  storeError: () => undefined,
  breakerState: () => undefined,
  keyEvicted: () => undefined,
};
