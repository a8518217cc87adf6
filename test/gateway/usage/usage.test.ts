// Usage recorded by the gateway itself: tools/calls through the configured gatekeeper (subscription key,
// per-subscription quota) → a success, a backend failure and a quota refusal → the minute rows and the
// hour/day summary show them. The store's additive upsert runs on SQLite and, with DATABASE_URL, on
// PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { SubscriptionStore } from '../../../src/gateway/auth/subscriptions/store.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { BUCKETS, bucketOf, quantile } from '../../../src/gateway/usage/histogram.js';
import { UsageRecorder } from '../../../src/gateway/usage/recorder.js';
import { UsageStore, minuteOf } from '../../../src/gateway/usage/store.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { MCP_HEADERS, fixtureBackendConfig } from '../support/gateway.js';

describe('usage through a running gateway', () => {
  let backend: FixtureBackend;
  before(async () => {
    backend = await startFixtureBackend();
  });
  after(async () => backend.close());

  test('a success, a backend error and a quota refusal are in the minute rows and the summary', async () => {
    const config = loadConfig({
      env: {},
      overrides: {
        dataDir: mkdtempSync(join(tmpdir(), 'toolgate-usage-')),
        logging: { level: 'warn' },
        gateway: {
          backends: [fixtureBackendConfig(backend.baseUrl)],
          auth: { devIdentityProvider: { enabled: false } },
          usage: { flushMs: 60_000 },
        },
      },
    });
    const db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
    const app = await createGateway({ config, logger, stores: { db } });
    const issued = await new SubscriptionStore(db).create({
      application: 'usage-agent',
      environment: 'development',
      rateLimitPerMinute: 2,
    });
    const call = async (name: string) => {
      const reply = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          ...MCP_HEADERS,
          'mcp-protocol-version': '2025-11-25',
          'ocp-apim-subscription-key': issued.primaryKey,
        },
        payload: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: {} },
        }),
      });
      return { status: reply.statusCode, body: reply.json() as Record<string, unknown> };
    };
    try {
      const ok = await call('test_simple_text');
      assert.equal(ok.status, 200);
      assert.equal((ok.body.result as { isError?: boolean }).isError, undefined);
      const failed = await call('test_error_handling');
      assert.equal((failed.body.result as { isError?: boolean }).isError, true);
      const refused = await call('test_error_handling');
      assert.equal(refused.status, 429, 'the third call in the minute is over the quota of 2');
    } finally {
      await app.close(); // flushes what is pending
    }
    try {
      const store = new UsageStore(db);
      const summary = await store.summarise({ window: 'hour' });
      const byTool = new Map(summary.map((s) => [s.tool, s]));
      assert.deepEqual([...byTool.keys()].sort(), ['test_error_handling', 'test_simple_text']);
      const simple = byTool.get('test_simple_text');
      assert.equal(simple?.subscriptionId, issued.subscription.id);
      assert.equal(simple?.requests, 1);
      assert.equal(simple?.errors, 0);
      assert.equal(simple?.quotaRefusals, 0);
      assert.equal(simple?.latency.count, 1);
      assert.ok((simple?.latency.avgMs ?? -1) >= 0);
      const erroring = byTool.get('test_error_handling');
      assert.equal(erroring?.requests, 1);
      assert.equal(erroring?.errors, 1);
      assert.equal(erroring?.quotaRefusals, 1);
      const filtered = await store.summarise({
        window: 'day',
        subscriptionId: issued.subscription.id,
        tool: 'test_simple_text',
      });
      assert.equal(filtered.length, 1);
      assert.equal(
        (await store.summarise({ window: 'day', subscriptionId: 'sub_other' })).length,
        0,
      );
    } finally {
      await db.close();
    }
  });
});

test('histogram: buckets and quantiles', () => {
  assert.equal(bucketOf(0), 0);
  assert.equal(bucketOf(10), 0);
  assert.equal(bucketOf(11), 1);
  assert.equal(bucketOf(60_000), BUCKETS - 1);
  const counts = new Array<number>(BUCKETS).fill(0);
  assert.equal(quantile(counts, 0.5), null);
  counts[0] = 50; // ≤ 10 ms
  counts[3] = 50; // 50–100 ms
  assert.equal(quantile(counts, 0.5), 10);
  assert.equal(quantile(counts, 0.95), 95);
  counts[BUCKETS - 1] = 1000;
  assert.equal(quantile(counts, 0.95), 10_000, 'the open bucket answers its lower bound');
});

async function exerciseStore(db: Database): Promise<void> {
  await migrateGatewayDatabase(db);
  const store = new UsageStore(db);
  let now = Date.parse('2026-11-25T10:30:10.000Z');
  // Two replicas flushing into the same minute: the upsert adds.
  const replicas = [0, 1].map(() => new UsageRecorder({ store, now: () => now }));
  for (const replica of replicas) {
    replica.call('sub_a', 'getPayment', 'ok', 12);
    replica.call('sub_a', 'getPayment', 'error', 300);
    replica.quotaRefused('sub_a', 'getPayment');
    await replica.flush();
  }
  const rows = await db.query<{ minute: string; requests: number | string; h1: number | string }>(
    'SELECT minute, requests, h1 FROM gateway_usage_minutes',
  );
  assert.deepEqual(
    rows.map((r) => [r.minute, Number(r.requests), Number(r.h1)]),
    [[minuteOf(now), 4, 2]],
  );
  const [summary] = await store.summarise({ window: 'hour', now: new Date(now) });
  assert.equal(summary?.requests, 4);
  assert.equal(summary?.errors, 2);
  assert.equal(summary?.quotaRefusals, 2);
  assert.equal(summary?.latency.avgMs, 156);
  // Issue 27: the range is kept across replicas' upserts and bounds p50/p95.
  assert.equal(summary?.latency.minMs, 12);
  assert.equal(summary?.latency.maxMs, 300);
  assert.ok((summary?.latency.p95Ms ?? 0) <= 300);
  // The time series: per minute over the hour, per hour over the day.
  const minutes = await store.series({ window: 'hour', now: new Date(now) });
  assert.deepEqual(
    minutes.map((p) => [p.at, p.requests, p.errors, p.quotaRefusals]),
    [[minuteOf(now), 4, 2, 2]],
  );
  const hours = await store.series({ window: 'day', now: new Date(now) });
  assert.deepEqual(
    hours.map((p) => [p.at, p.requests, p.latency.minMs, p.latency.maxMs]),
    [['2026-11-25T10:00:00.000Z', 4, 12, 300]],
  );
  // A row recorded before the range was kept (NULL range) turns the bound off for its group.
  await db.execute(
    `INSERT INTO gateway_usage_minutes (minute, subscription_id, tool, requests, quota_refusals, errors,
       latency_count, latency_sum_us, h0) VALUES ($1, 'sub_old', 'getPayment', 1, 0, 0, 1, 4000, 1)`,
    [minuteOf(now)],
  );
  const [old] = await store.summarise({
    window: 'hour',
    subscriptionId: 'sub_old',
    now: new Date(now),
  });
  assert.deepEqual(old?.latency, {
    count: 1,
    avgMs: 4,
    p50Ms: 5,
    p95Ms: 9.5,
    minMs: null,
    maxMs: null,
  });
  await db.execute(`DELETE FROM gateway_usage_minutes WHERE subscription_id = 'sub_old'`);
  // Two hours later: outside the hour, inside the day.
  now += 2 * 3_600_000;
  assert.equal((await store.summarise({ window: 'hour', now: new Date(now) })).length, 0);
  assert.equal((await store.summarise({ window: 'day', now: new Date(now) })).length, 1);
  // Nine days later the first flush prunes rows older than eight days.
  now += 9 * 86_400_000;
  const late = new UsageRecorder({ store, now: () => now });
  late.call('sub_b', 'getPayment', 'ok', 1);
  await late.flush();
  const left = await db.query<{ subscription_id: string }>(
    'SELECT subscription_id FROM gateway_usage_minutes',
  );
  assert.deepEqual(
    left.map((r) => r.subscription_id),
    ['sub_b'],
  );
}

test('usage store: SQLite', async () => {
  const db = openSqlite({ path: ':memory:' });
  try {
    await exerciseStore(db);
  } finally {
    await db.close();
  }
});

test('usage store: PostgreSQL', { skip: skipWithoutPostgres }, async () => {
  const schema = uniqueName('gw_usage');
  const db = await openPostgres({
    url: DATABASE_URL ?? '',
    schema,
    poolSize: 2,
    connectTimeoutMs: 5000,
    statementTimeoutMs: 5000,
  });
  try {
    await exerciseStore(db);
  } finally {
    await db.close();
    await dropSchema(schema);
  }
});

test('a failed flush keeps its counts for the next one', async () => {
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const store = new UsageStore(db);
  let fail = true;
  const flaky = Object.assign(Object.create(store) as UsageStore, {
    add: (rows: Parameters<UsageStore['add']>[0]) =>
      fail ? Promise.reject(new Error('database away')) : store.add(rows),
  });
  const errors: unknown[] = [];
  const recorder = new UsageRecorder({ store: flaky, onError: (e) => errors.push(e) });
  recorder.call('sub_a', 'getPayment', 'ok', 5);
  await assert.rejects(recorder.flush(), /database away/);
  assert.equal(errors.length, 1);
  recorder.call('sub_a', 'getPayment', 'ok', 5);
  fail = false;
  await recorder.flush();
  const [summary] = await store.summarise({ window: 'hour' });
  assert.equal(summary?.requests, 2);
  await db.close();
});

test('minuteOf gives the start of the minute, also when asked about other minutes in between', () => {
  const t = Date.UTC(2026, 10, 25, 13, 37, 42, 500);
  assert.equal(minuteOf(t), '2026-11-25T13:37:00.000Z');
  assert.equal(minuteOf(t + 10_000), '2026-11-25T13:37:00.000Z');
  assert.equal(minuteOf(t + 20_000), '2026-11-25T13:38:00.000Z');
  assert.equal(minuteOf(t - 60_000), '2026-11-25T13:36:00.000Z');
  assert.equal(minuteOf(t), '2026-11-25T13:37:00.000Z');
  assert.equal(minuteOf(0), '1970-01-01T00:00:00.000Z');
});
