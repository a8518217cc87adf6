// Issue 27 ("p50/p95 that are consistent with the average"): the percentile estimate from the histogram
// buckets never falls outside [min, max] of the observed latencies, p50 ≤ p95, and a single observation's
// p50 = p95 = that latency. Checked on the pure estimator and through the recorder and the stored rows
// (SQLite), including several flushes into the same minute and several minutes summed into one window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BUCKETS, bucketOf, quantile } from '../../../src/gateway/usage/histogram.js';
import { UsageRecorder } from '../../../src/gateway/usage/recorder.js';
import { UsageStore } from '../../../src/gateway/usage/store.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';

/** Latencies as the gateway measures them: fractional ms, from sub-millisecond to beyond the last bound. */
const latency = fc.oneof(
  fc.double({ min: 0, max: 60_000, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 0, max: 12_000 }),
);
const latencies = fc.array(latency, { minLength: 1, maxLength: 60 });
/** As stored: whole microseconds. */
const asStored = (ms: number) => Math.round(ms * 1000) / 1000;

test('quantile: within [min, max] of the observations, p50 ≤ p95 (property)', () => {
  fc.assert(
    fc.property(latencies, fc.double({ min: 0.01, max: 1, noNaN: true }), (values, q) => {
      const buckets = new Array<number>(BUCKETS).fill(0);
      for (const v of values) buckets[bucketOf(v)] = (buckets[bucketOf(v)] ?? 0) + 1;
      const range = { minMs: Math.min(...values), maxMs: Math.max(...values) };
      const estimate = quantile(buckets, q, range);
      assert.ok(estimate !== null);
      assert.ok(
        estimate >= range.minMs && estimate <= range.maxMs,
        `${estimate} in [${range.minMs}, ${range.maxMs}]`,
      );
      const p50 = quantile(buckets, 0.5, range) as number;
      const p95 = quantile(buckets, 0.95, range) as number;
      assert.ok(p50 <= p95, `p50 ${p50} ≤ p95 ${p95}`);
    }),
    { numRuns: 500 },
  );
});

test('quantile: a single observation is its own p50 and p95 (property)', () => {
  fc.assert(
    fc.property(latency, (v) => {
      const buckets = new Array<number>(BUCKETS).fill(0);
      buckets[bucketOf(v)] = 1;
      const range = { minMs: v, maxMs: v };
      assert.equal(quantile(buckets, 0.5, range), v);
      assert.equal(quantile(buckets, 0.95, range), v);
    }),
    { numRuns: 500 },
  );
});

test('the row of the issue: one call of 56 ms shows avg, p50 and p95 of 56 ms', async () => {
  const db = openSqlite({ path: ':memory:' });
  try {
    await migrateGatewayDatabase(db);
    const store = new UsageStore(db);
    const recorder = new UsageRecorder({ store });
    recorder.call('sub_a', 'getPayment', 'ok', 56);
    await recorder.flush();
    const [row] = await store.summarise({ window: 'hour' });
    assert.deepEqual(row?.latency, {
      count: 1,
      avgMs: 56,
      p50Ms: 56,
      p95Ms: 56,
      minMs: 56,
      maxMs: 56,
    });
  } finally {
    await db.close();
  }
});

test('through the recorder and the stored rows: p50/p95 within [min, max], avg too (property)', async () => {
  const db = openSqlite({ path: ':memory:' });
  try {
    await migrateGatewayDatabase(db);
    const store = new UsageStore(db);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Calls spread over up to three flushes and three minutes.
        fc.array(
          fc.tuple(latency, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 })),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        async (calls) => {
          run += 1;
          const subscription = `sub_${run}`;
          const base = Date.parse('2026-11-25T10:00:00.000Z');
          for (let flush = 0; flush < 3; flush++) {
            for (let minute = 0; minute < 3; minute++) {
              const recorder = new UsageRecorder({ store, now: () => base + minute * 60_000 });
              for (const [ms, f, m] of calls)
                if (f === flush && m === minute)
                  recorder.call(subscription, 'getPayment', 'ok', ms);
              await recorder.flush();
            }
          }
          const [row] = await store.summarise({
            window: 'hour',
            subscriptionId: subscription,
            now: new Date(base + 3 * 60_000),
          });
          const stored = calls.map(([ms]) => asStored(ms));
          const min = Math.min(...stored);
          const max = Math.max(...stored);
          const { p50Ms, p95Ms, avgMs, minMs, maxMs, count } = row?.latency ?? {};
          assert.equal(count, calls.length);
          assert.equal(minMs, min);
          assert.equal(maxMs, max);
          assert.ok(p50Ms !== null && p50Ms !== undefined && p95Ms !== null && p95Ms !== undefined);
          assert.ok(
            p50Ms >= min && p95Ms <= max && p50Ms <= p95Ms,
            `${min} ≤ ${p50Ms} ≤ ${p95Ms} ≤ ${max}`,
          );
          // The average is rounded to 0.1 ms for display.
          assert.ok(
            avgMs !== null && avgMs !== undefined && avgMs >= min - 0.05 && avgMs <= max + 0.05,
          );
          if (calls.length === 1) assert.ok(p50Ms === min && p95Ms === min);
        },
      ),
      { numRuns: 150 },
    );
  } finally {
    await db.close();
  }
});
