// RateLimitMetrics backed by prom-client, for the gateway's /metrics endpoint.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { BreakerState } from './circuit-breaker.js';
import type { DecisionOutcome, DecisionSource, RateLimitMetrics } from './metrics.js';

const BREAKER_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

export function createPromRateLimitMetrics(registry: Registry): RateLimitMetrics {
  const decisions = new Counter({
    name: 'toolgate_ratelimit_decisions_total',
    help: 'Rate-limit decisions by outcome and by who decided',
    labelNames: ['outcome', 'source'] as const,
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'toolgate_ratelimit_store_errors_total',
    help: 'Failed rate-limit store (Redis) calls by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const breaker = new Gauge({
    name: 'toolgate_ratelimit_breaker_state',
    help: 'Rate-limit store circuit breaker: 0 closed, 1 half-open, 2 open',
    registers: [registry],
    // Across the workers of `--workers N`: the worst state any of them is in.
    aggregator: 'max',
  });
  const breakerChanges = new Counter({
    name: 'toolgate_ratelimit_breaker_transitions_total',
    help: 'Circuit breaker transitions by new state',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const evictions = new Counter({
    name: 'toolgate_ratelimit_evictions_total',
    help: 'Keys evicted from a full in-process limiter; live = still inside their window',
    labelNames: ['live'] as const,
    registers: [registry],
  });
  breaker.set(0);
  return {
    decision: (outcome: DecisionOutcome, source: DecisionSource) =>
      decisions.inc({ outcome, source }),
    storeError: (reason) => storeErrors.inc({ reason }),
    breakerState: (state) => {
      breaker.set(BREAKER_VALUE[state]);
      breakerChanges.inc({ state });
    },
    keyEvicted: (live) => evictions.inc({ live: live ? 'true' : 'false' }),
  };
}
