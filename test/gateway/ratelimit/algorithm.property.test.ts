// Property tests of the exact sliding log on random arrival sequences with a controlled clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { MemoryStore } from '../../../src/gateway/ratelimit/memory-store.js';
import { RedisStore } from '../../../src/gateway/ratelimit/redis-store.js';
import type { LimitCheck, RateLimitStore } from '../../../src/gateway/ratelimit/types.js';
import { ManualClock } from './manual-clock.js';

interface KeySpec {
  readonly limit: number;
  readonly windowMs: number;
}

const keySpec = fc.record({
  limit: fc.integer({ min: 1, max: 8 }),
  windowMs: fc.integer({ min: 1, max: 2000 }),
});

// A request: a time step (often 0: same-millisecond bursts) and the subset of keys it checks.
const arrival = (keys: number) =>
  fc.record({
    dt: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 50 }),
      fc.integer({ min: 0, max: 3000 }),
    ),
    mask: fc.integer({ min: 1, max: (1 << keys) - 1 }),
  });

const scenario = fc.array(keySpec, { minLength: 1, maxLength: 3 }).chain((specs) =>
  fc.record({
    specs: fc.constant(specs),
    arrivals: fc.array(arrival(specs.length), { minLength: 1, maxLength: 300, size: 'max' }),
  }),
);

function countIn(log: readonly number[], from: number, to: number): number {
  // Admissions with from < t <= to.
  return log.filter((t) => t > from && t <= to).length;
}

type Scenario = { specs: KeySpec[]; arrivals: Array<{ dt: number; mask: number }> };

/** Feeds one scenario to a store and checks every decision against a reference model. */
async function runScenario(
  { specs, arrivals }: Scenario,
  clock: ManualClock,
  store: RateLimitStore,
): Promise<void> {
  const admitted: number[][] = specs.map(() => []);
  const checksOf = (mask: number): Array<{ i: number; check: LimitCheck }> =>
    specs.flatMap((s: KeySpec, i) =>
      mask & (1 << i)
        ? [
            {
              i,
              check: {
                scope: 'user' as const,
                key: `k${i}`,
                limit: s.limit,
                windowMs: s.windowMs,
              },
            },
          ]
        : [],
    );
  for (const a of arrivals) {
    clock.advance(a.dt);
    const now = clock.now();
    const chosen = checksOf(a.mask);
    // Reference model over admitted requests only: room iff fewer than `limit` in (now-W, now].
    const room = chosen.map(
      ({ i, check }) => countIn(admitted[i] ?? [], now - check.windowMs, now) < check.limit,
    );
    const d = await store.consume(chosen.map((c) => c.check));
    // Exactness in both directions: admitted iff every check had room (so refused requests
    // never consumed quota, or a later request with room would have been refused).
    assert.equal(d.allowed, room.every(Boolean));
    if (d.allowed) {
      for (const { i } of chosen) admitted[i]?.push(now);
    } else {
      // All-or-nothing: the refusal is blamed on a check that really had no room …
      const blockingIdx = chosen.findIndex((c) => c.check.key === d.blocking?.check.key);
      assert.ok(blockingIdx >= 0 && room[blockingIdx] === false);
      // … and the retry time is when that check's log next has room.
      const { i, check } = chosen[blockingIdx] as { i: number; check: LimitCheck };
      const live = (admitted[i] ?? []).filter((t) => t > now - check.windowMs);
      const expected = (live[live.length - check.limit] as number) + check.windowMs - now;
      assert.equal(d.blocking?.retryAfterMs, expected);
    }
    for (const [n, { i, check }] of chosen.entries()) {
      const used = countIn(admitted[i] ?? [], now - check.windowMs, now);
      assert.equal(d.checks[n]?.remaining, Math.max(0, check.limit - used));
    }
  }
  // The safety property itself, over the final history: every span [s, s + W) holds at most
  // `limit` admissions. It suffices to test spans starting at each admission.
  specs.forEach((s, i) => {
    const log = admitted[i] ?? [];
    for (const start of log) {
      const inSpan = log.filter((t) => t >= start && t < start + s.windowMs).length;
      assert.ok(
        inSpan <= s.limit,
        `key ${i}: ${inSpan} admissions in [${start}, ${start + s.windowMs})`,
      );
    }
  });
}

const redisUrl = process.env.REDIS_URL;

describe('exact sliding log (property)', () => {
  it('never admits more than the limit in any window-length span; refusals cost nothing; all-or-nothing', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const clock = new ManualClock(0);
        const store = new MemoryStore({ clock, sweepIntervalMs: 0 });
        await runScenario(sc, clock, store);
        await store.close();
      }),
      { numRuns: 300 },
    );
  });

  it(
    'the Redis script satisfies the same property',
    { skip: redisUrl ? false : 'REDIS_URL not set' },
    async () => {
      const client = new Redis(redisUrl ?? '');
      const prefix = `toolgate-test:rlprop:${randomBytes(4).toString('hex')}:`;
      let run = 0;
      try {
        await fc.assert(
          fc.asyncProperty(scenario, async (sc) => {
            const clock = new ManualClock(1_700_000_000_000);
            const store = new RedisStore({ client, keyPrefix: `${prefix}${++run}:`, clock });
            await runScenario(sc, clock, store);
          }),
          { numRuns: 40 },
        );
      } finally {
        const keys = await client.keys(`{${prefix}*`);
        if (keys.length > 0) await client.del(...keys);
        await client.quit();
      }
    },
  );

  it('a refused request leaves every log unchanged (no partial recording)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), (la, lb) => {
        const clock = new ManualClock(0);
        const store = new MemoryStore({ clock, sweepIntervalMs: 0 });
        const a: LimitCheck = { scope: 'user', key: 'a', limit: la, windowMs: 1000 };
        const b: LimitCheck = { scope: 'tool', key: 'b', limit: lb, windowMs: 1000 };
        for (let i = 0; i < lb; i++) store.consumeSync([b]);
        // b is full: any number of joint requests must leave a untouched.
        for (let i = 0; i < 10; i++) assert.equal(store.consumeSync([a, b]).allowed, false);
        const alone = store.consumeSync([a]);
        assert.equal(alone.allowed, true);
        assert.equal(alone.checks[0]?.remaining, la - 1);
        void store.close();
      }),
    );
  });
});
