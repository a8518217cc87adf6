// Circuit breaker and failure policies, with a scripted primary store and a manual clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStore } from '../../../src/gateway/ratelimit/memory-store.js';
import { CountingMetrics } from '../../helpers/counting-metrics.js';
import {
  ResilientStore,
  type StoreFailurePolicy,
} from '../../../src/gateway/ratelimit/resilient-store.js';
import type {
  LimitCheck,
  LimitDecision,
  RateLimitStore,
} from '../../../src/gateway/ratelimit/types.js';
import { ManualClock } from './manual-clock.js';

class ScriptedStore implements RateLimitStore {
  up = true;
  calls = 0;
  async consume(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    this.calls++;
    if (!this.up) throw new Error('Command timed out');
    return { allowed: true, checks: checks.map((check) => ({ check, remaining: 7, resetMs: 1 })) };
  }
  async peek(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    return this.consume(checks);
  }
  async close(): Promise<void> {}
}

const check: LimitCheck = { scope: 'user', key: 'u:a', limit: 2, windowMs: 60_000 };

function setup(policy: StoreFailurePolicy) {
  const clock = new ManualClock();
  const primary = new ScriptedStore();
  const metrics = new CountingMetrics();
  const logs: Array<{ level: string; msg: string; obj: Record<string, unknown> }> = [];
  const store = new ResilientStore({
    primary,
    fallback: new MemoryStore({ clock, sweepIntervalMs: 0 }),
    policy,
    failureThreshold: 3,
    cooldownMs: 1000,
    clock,
    metrics,
    logger: {
      warn: (obj, msg) => logs.push({ level: 'warn', msg, obj }),
      info: (obj, msg) => logs.push({ level: 'info', msg, obj }),
    },
  });
  return { clock, primary, metrics, logs, store };
}

describe('resilient store', () => {
  it('passes decisions through while the primary works', async () => {
    const { store, primary } = setup('fallback');
    const d = await store.consume([check]);
    assert.equal(d.degraded, undefined);
    assert.equal(d.checks[0]?.remaining, 7);
    assert.equal(primary.calls, 1);
  });

  it('opens after N consecutive failures, stops calling the primary, probes after the cooldown, recovers', async () => {
    const { store, primary, clock, metrics, logs } = setup('fallback');
    primary.up = false;
    for (let i = 0; i < 3; i++) assert.equal((await store.consume([check])).degraded, 'fallback');
    assert.equal(store.breakerState, 'open');
    assert.equal(primary.calls, 3);
    for (let i = 0; i < 10; i++) await store.consume([check]);
    assert.equal(primary.calls, 3, 'an open circuit does not touch the primary');
    clock.advance(1000);
    await store.consume([check]); // half-open probe fails → open again
    assert.equal(primary.calls, 4);
    assert.equal(store.breakerState, 'open');
    primary.up = true;
    clock.advance(999);
    await store.consume([check]);
    assert.equal(primary.calls, 4, 'still cooling down');
    clock.advance(1);
    const d = await store.consume([check]);
    assert.equal(d.degraded, undefined);
    assert.equal(store.breakerState, 'closed');
    assert.deepEqual(metrics.breakerStates, ['open', 'half-open', 'open', 'half-open', 'closed']);
    assert.equal(metrics.get('store_error:timeout'), 4);
    assert.ok(logs.some((l) => l.level === 'warn' && l.msg.includes('circuit opened')));
    assert.ok(logs.some((l) => l.level === 'info' && l.obj['state'] === 'closed'));
  });

  it('fallback policy: the local limiter enforces the limits while the primary is down', async () => {
    const { store, primary } = setup('fallback');
    primary.up = false;
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await store.consume([check]));
    assert.deepEqual(
      decisions.map((d) => d.allowed),
      [true, true, false, false],
    );
    assert.ok(decisions.every((d) => d.degraded === 'fallback'));
    assert.equal(decisions[2]?.blocking?.check.key, 'u:a');
  });

  it('closed policy: refuses as unavailable', async () => {
    const { store, primary } = setup('closed');
    primary.up = false;
    const d = await store.consume([check]);
    assert.equal(d.allowed, false);
    assert.equal(d.degraded, 'fail-closed');
    assert.equal(d.blocking, undefined);
  });

  it('open policy: admits unchecked', async () => {
    const { store, primary } = setup('open');
    primary.up = false;
    for (let i = 0; i < 5; i++) {
      const d = await store.consume([check]);
      assert.equal(d.allowed, true);
      assert.equal(d.degraded, 'fail-open');
    }
  });

  it('a success resets the consecutive-failure count', async () => {
    const { store, primary } = setup('fallback');
    for (let round = 0; round < 3; round++) {
      primary.up = false;
      await store.consume([check]);
      await store.consume([check]);
      primary.up = true;
      await store.consume([check]);
    }
    assert.equal(store.breakerState, 'closed');
  });

  it('the fallback policy requires a fallback store', () => {
    assert.throws(
      () =>
        new ResilientStore({
          primary: new ScriptedStore(),
          policy: 'fallback',
          failureThreshold: 1,
          cooldownMs: 10,
        }),
    );
  });
});
