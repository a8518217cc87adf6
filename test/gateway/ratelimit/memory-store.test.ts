import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryStore } from '../../../src/gateway/ratelimit/memory-store.js';
import type { LimitCheck } from '../../../src/gateway/ratelimit/types.js';
import { ManualClock } from './manual-clock.js';
import { storeContract } from './store-contract.js';

storeContract({
  name: 'memory',
  create: (clock) => Promise.resolve(new MemoryStore({ clock, sweepIntervalMs: 0 })),
});

const ipCheck = (n: number): LimitCheck => ({
  scope: 'ip',
  key: `ip:${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`,
  limit: 50,
  windowMs: 60_000,
});

describe('memory store bounds', () => {
  it('keeps at most maxKeys keys under 1,000,000 distinct IPs', () => {
    const clock = new ManualClock();
    let live = 0;
    const store = new MemoryStore({
      clock,
      maxKeys: 10_000,
      sweepIntervalMs: 0,
      onEvict: (isLive) => (live += isLive ? 1 : 0),
    });
    let peak = 0;
    for (let i = 0; i < 1_000_000; i++) {
      assert.equal(store.consumeSync([ipCheck(i)]).allowed, true);
      if (store.size > peak) peak = store.size;
    }
    assert.ok(peak <= 10_000, `peak ${peak}`);
    assert.ok(peak >= 9_999, `peak ${peak}`); // the bound is used, not undershot
    // Every evicted key was still inside its window (all arrived within one second of clock time).
    assert.equal(live, 1_000_000 - store.size);
    void store.close();
  });

  it('evicts keys unused for a generation, never a recently used one', () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock, maxKeys: 4, sweepIntervalMs: 0 });
    const k = (key: string): LimitCheck => ({ scope: 'ip', key, limit: 1, windowMs: 60_000 });
    store.consumeSync([k('a')]);
    store.consumeSync([k('b')]); // generation {a, b} full → becomes the previous one
    store.consumeSync([k('c')]);
    assert.equal(store.consumeSync([k('a')]).allowed, false); // a is used again; b is not
    store.consumeSync([k('d')]);
    assert.ok(store.size <= 4);
    assert.equal(store.consumeSync([k('a')]).allowed, false, 'a kept its history');
    assert.equal(store.consumeSync([k('b')]).allowed, true, 'b was forgotten');
    void store.close();
  });

  it('sweep reclaims keys whose window has passed and keeps live ones', () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock, sweepIntervalMs: 0 });
    for (let i = 0; i < 1000; i++) store.consumeSync([{ ...ipCheck(i), windowMs: 10_000 }]);
    clock.advance(5_000);
    store.consumeSync([{ ...ipCheck(5000), windowMs: 10_000 }]);
    assert.equal(store.sweep(), 0);
    clock.advance(5_000);
    assert.equal(store.sweep(), 1000);
    assert.equal(store.size, 1);
    clock.advance(5_000);
    assert.equal(store.sweep(), 1);
    assert.equal(store.size, 0);
    void store.close();
  });

  it('reuses an expired key on access without growing', () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ clock, sweepIntervalMs: 0 });
    const c: LimitCheck = { scope: 'user', key: 'u:a', limit: 2, windowMs: 1000 };
    store.consumeSync([c]);
    store.consumeSync([c]);
    clock.advance(1000);
    const d = store.consumeSync([c]);
    assert.equal(d.allowed, true);
    assert.equal(d.checks[0]?.remaining, 1);
    assert.equal(store.size, 1);
    void store.close();
  });
});
