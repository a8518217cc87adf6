// Rate-limiter metrics counted in memory, for tests that assert which decisions were made and from which
// store: counters keyed `decision:<outcome>:<source>`, `store_error:<reason>`, `breaker:<state>`, `evicted:…`.
import type { BreakerState } from '../../src/gateway/ratelimit/circuit-breaker.js';
import type {
  DecisionOutcome,
  DecisionSource,
  RateLimitMetrics,
} from '../../src/gateway/ratelimit/metrics.js';

export class CountingMetrics implements RateLimitMetrics {
  readonly counts = new Map<string, number>();
  readonly breakerStates: BreakerState[] = [];

  get(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  #inc(name: string): void {
    this.counts.set(name, this.get(name) + 1);
  }

  decision(outcome: DecisionOutcome, source: DecisionSource): void {
    this.#inc(`decision:${outcome}:${source}`);
  }

  storeError(reason: 'timeout' | 'unavailable' | 'error'): void {
    this.#inc(`store_error:${reason}`);
  }

  breakerState(state: BreakerState): void {
    this.breakerStates.push(state);
    this.#inc(`breaker:${state}`);
  }

  keyEvicted(live: boolean): void {
    this.#inc(live ? 'evicted:live' : 'evicted:expired');
  }
}
