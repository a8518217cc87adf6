// The behaviour every RateLimitStore must have; run against the memory store and against Redis.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { LimitCheck, RateLimitStore } from '../../../src/gateway/ratelimit/types.js';
import { ManualClock } from './manual-clock.js';

export interface ContractTarget {
  readonly name: string;
  readonly skip?: string | false;
  /** A fresh, empty store on the given clock. */
  create(clock: ManualClock): Promise<RateLimitStore>;
}

const user = (limit: number, windowMs = 60_000, key = 'u:alice'): LimitCheck => ({
  scope: 'user',
  key,
  limit,
  windowMs,
});

export function storeContract(target: ContractTarget): void {
  describe(`RateLimitStore contract: ${target.name}`, { skip: target.skip }, () => {
    const opened: RateLimitStore[] = [];
    const setup = async () => {
      const clock = new ManualClock();
      const store = await target.create(clock);
      opened.push(store);
      return { clock, store };
    };
    after(async () => {
      for (const s of opened) await s.close();
    });

    it('admits up to the limit, then refuses with the time until the oldest slot frees', async () => {
      const { clock, store } = await setup();
      const remaining: number[] = [];
      for (let i = 0; i < 3; i++) {
        const d = await store.consume([user(3)]);
        assert.equal(d.allowed, true);
        remaining.push(d.checks[0]?.remaining ?? -1);
        clock.advance(1000);
      }
      assert.deepEqual(remaining, [2, 1, 0]);
      const refused = await store.consume([user(3)]);
      assert.equal(refused.allowed, false);
      assert.equal(refused.checks[0]?.remaining, 0);
      assert.equal(refused.blocking?.check.key, 'u:alice');
      // First admission at t0, now t0 + 3000: it leaves the window at t0 + 60000.
      assert.equal(refused.blocking?.retryAfterMs, 57_000);
      assert.equal(refused.checks[0]?.resetMs, 57_000);
    });

    it('slides: a slot frees exactly when its admission leaves the window', async () => {
      const { clock, store } = await setup();
      await store.consume([user(2)]);
      clock.advance(10_000);
      await store.consume([user(2)]);
      clock.advance(49_999); // 59,999 ms after the first admission: still inside
      assert.equal((await store.consume([user(2)])).allowed, false);
      clock.advance(1); // exactly one window later: the first admission is out
      const d = await store.consume([user(2)]);
      assert.equal(d.allowed, true);
      assert.equal(d.checks[0]?.remaining, 0);
      assert.equal(d.checks[0]?.resetMs, 10_000); // second admission leaves 10 s later
    });

    it('refused requests do not use up quota', async () => {
      const { clock, store } = await setup();
      await store.consume([user(1)]);
      for (let i = 0; i < 50; i++) {
        clock.advance(1000);
        assert.equal((await store.consume([user(1)])).allowed, false);
      }
      clock.advance(10_000); // 60 s after the only admission
      assert.equal((await store.consume([user(1)])).allowed, true);
    });

    it('peek decides as consume would and records nothing', async () => {
      const { clock, store } = await setup();
      const unseen = await store.peek([user(2, 60_000, 'u:nobody')]);
      assert.equal(unseen.allowed, true);
      assert.equal(unseen.checks[0]?.remaining, 2);
      for (let i = 0; i < 5; i++) assert.equal((await store.peek([user(2)])).allowed, true);
      await store.consume([user(2)]);
      clock.advance(1000);
      await store.consume([user(2)]);
      const full = await store.peek([user(2)]);
      assert.equal(full.allowed, false);
      assert.equal(full.checks[0]?.remaining, 0);
      assert.equal(full.blocking?.retryAfterMs, 59_000);
      clock.advance(59_000); // the first admission leaves the window: room for one, nothing recorded
      assert.equal((await store.peek([user(2)])).allowed, true);
      assert.equal((await store.consume([user(2)])).allowed, true);
      assert.equal((await store.consume([user(2)])).allowed, false);
    });

    it('decides several checks all-or-nothing', async () => {
      const { store } = await setup();
      const tool: LimitCheck = { scope: 'tool', key: 't:s1:x', limit: 2, windowMs: 60_000 };
      const sub: LimitCheck = { scope: 'subscription', key: 's:s1', limit: 10, windowMs: 60_000 };
      for (let i = 0; i < 2; i++)
        assert.equal((await store.consume([user(5), sub, tool])).allowed, true);
      const refused = await store.consume([user(5), sub, tool]);
      assert.equal(refused.allowed, false);
      assert.equal(refused.blocking?.check.scope, 'tool');
      assert.deepEqual(
        refused.checks.map((c) => c.remaining),
        [3, 8, 0],
      );
      // The refusal recorded nothing: without the tool check the user still has 3 left.
      const d = await store.consume([user(5), sub]);
      assert.equal(d.allowed, true);
      assert.deepEqual(
        d.checks.map((c) => c.remaining),
        [2, 7],
      );
    });

    it('reports the check that frees last as blocking', async () => {
      const { clock, store } = await setup();
      const a = user(1, 10_000, 'u:a');
      const b = user(1, 60_000, 'u:b');
      await store.consume([a, b]);
      clock.advance(1000);
      const d = await store.consume([a, b]);
      assert.equal(d.allowed, false);
      assert.equal(d.blocking?.check.key, 'u:b');
      assert.equal(d.blocking?.retryAfterMs, 59_000);
    });

    it('keeps keys independent', async () => {
      const { store } = await setup();
      assert.equal((await store.consume([user(1, 60_000, 'u:x')])).allowed, true);
      assert.equal((await store.consume([user(1, 60_000, 'u:x')])).allowed, false);
      assert.equal((await store.consume([user(1, 60_000, 'u:y')])).allowed, true);
    });

    it('admits same-millisecond requests up to the limit exactly', async () => {
      const { store } = await setup();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.consume([user(7, 60_000, 'u:burst')])),
      );
      assert.equal(results.filter((r) => r.allowed).length, 7);
    });

    it('applies a lowered limit to the existing log', async () => {
      const { clock, store } = await setup();
      for (let i = 0; i < 4; i++) {
        await store.consume([user(10, 60_000, 'u:shrink')]);
        clock.advance(1000);
      }
      const d = await store.consume([user(2, 60_000, 'u:shrink')]);
      assert.equal(d.allowed, false);
      // 4 admissions at t0..t0+3s, now t0+4s: room for 1 of 2 once 3 have left, i.e. at t0+2s+60s.
      assert.equal(d.blocking?.retryAfterMs, 58_000);
    });
  });
}
