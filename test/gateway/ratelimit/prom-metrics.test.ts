import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createPromRateLimitMetrics } from '../../../src/gateway/ratelimit/prom-metrics.js';

describe('prom-client metrics', () => {
  it('exposes decisions, store errors, breaker state and evictions', async () => {
    const registry = new Registry();
    const m = createPromRateLimitMetrics(registry);
    m.decision('rejected', 'redis');
    m.decision('rejected', 'redis');
    m.storeError('timeout');
    m.breakerState('open');
    m.keyEvicted(true);
    const text = await registry.metrics();
    assert.match(text, /toolgate_ratelimit_decisions_total\{outcome="rejected",source="redis"\} 2/);
    assert.match(text, /toolgate_ratelimit_store_errors_total\{reason="timeout"\} 1/);
    assert.match(text, /toolgate_ratelimit_breaker_state 2/);
    assert.match(text, /toolgate_ratelimit_breaker_transitions_total\{state="open"\} 1/);
    assert.match(text, /toolgate_ratelimit_evictions_total\{live="true"\} 1/);
  });
});
