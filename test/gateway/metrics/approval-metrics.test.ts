// The approval backlog on /metrics (issue 29, "approval backlog" alert): pending, unexpired approvals per
// kind and the age of the oldest, read from the real consent_approvals table at scrape time; a database
// that fails leaves the gauges without samples instead of failing the scrape; under --workers N the
// cluster aggregate is the maximum over workers (they all read one table), not the sum.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AggregatorRegistry, Registry } from 'prom-client';
import {
  backlogOf,
  createApprovalMetrics,
  readBacklog,
} from '../../../src/gateway/approval-metrics.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const iso = (offsetSeconds: number) => new Date(NOW + offsetSeconds * 1000).toISOString();

async function seeded(db: Database = openSqlite({ path: ':memory:' })): Promise<Database> {
  await migrateGatewayDatabase(db);
  const rows: [string, string, string, number, number][] = [
    // id, kind, status, created (s from now), expires (s from now)
    ['apv_a', 'approve', 'pending', -300, 600],
    ['apv_b', 'approve', 'pending', -60, 840],
    ['apv_c', 'approve', 'pending', -2000, -1100], // expired: not waiting any more
    ['apv_d', 'approve', 'approved', -4000, 500], // decided
    ['apv_e', 'confirm', 'pending', -30, 870],
    ['apv_f', 'confirm', 'rejected', -20, 880],
  ];
  for (const [id, kind, status, created, expires] of rows)
    await db.execute(
      `INSERT INTO consent_approvals (id, kind, status, subscription, subject, tool, arguments_hash,
         policy_version, call_id, application, environment, backend, arguments_json, created_at, expires_at)
       VALUES ($1, $2, $3, 'sub_x', '', 'createPayment', 'h', 1, 'c', 'app', 'development', 'payments',
         '{}', $4, $5)`,
      [id, kind, status, iso(created), iso(expires)],
    );
  return db;
}

test('readBacklog counts pending, unexpired approvals per kind and ages the oldest', async () => {
  const db = await seeded();
  try {
    assert.deepEqual(await readBacklog(db, NOW), [
      { kind: 'confirm', pending: 1, oldestAgeSeconds: 30 },
      { kind: 'approve', pending: 2, oldestAgeSeconds: 300 },
    ]);
  } finally {
    await db.close();
  }
});

test(
  'readBacklog on PostgreSQL (COUNT is a bigint there)',
  { skip: skipWithoutPostgres },
  async () => {
    const schema = uniqueName('approval_metrics');
    const db = await seeded(
      await openPostgres({
        url: DATABASE_URL ?? '',
        schema,
        poolSize: 2,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 15000,
      }),
    );
    try {
      assert.deepEqual(await readBacklog(db, NOW), [
        { kind: 'confirm', pending: 1, oldestAgeSeconds: 30 },
        { kind: 'approve', pending: 2, oldestAgeSeconds: 300 },
      ]);
    } finally {
      await db.close();
      await dropSchema(schema);
    }
  },
);

test('backlogOf: a kind without rows is zero; counts given as strings (PostgreSQL bigint) are numbers', () => {
  assert.deepEqual(backlogOf([{ kind: 'approve', pending: '7', oldest: iso(-90) }], NOW), [
    { kind: 'confirm', pending: 0, oldestAgeSeconds: 0 },
    { kind: 'approve', pending: 7, oldestAgeSeconds: 90 },
  ]);
});

test('the gauges on a registry; a failing database leaves them without samples and the scrape answers', async () => {
  const db = await seeded();
  const registry = new Registry();
  let now = NOW;
  createApprovalMetrics(registry, () => now).watch(db);
  const text = await registry.metrics();
  assert.match(text, /^toolgate_approvals_pending\{kind="approve"\} 2$/m);
  assert.match(text, /^toolgate_approvals_oldest_pending_age_seconds\{kind="approve"\} 300$/m);
  assert.match(text, /^toolgate_approvals_pending\{kind="confirm"\} 1$/m);
  await db.close();
  now += 60_000; // past the minimum interval: the next scrape queries again, and fails
  const after = await registry.metrics();
  assert.doesNotMatch(after, /^toolgate_approvals_pending\{/m);
  assert.match(after, /^# TYPE toolgate_approvals_pending gauge$/m);
});

test('under --workers N the aggregate of the workers is their maximum, not their sum', async () => {
  const db = await seeded();
  try {
    const workers = [new Registry(), new Registry()];
    for (const registry of workers) createApprovalMetrics(registry, () => NOW).watch(db);
    const aggregated = AggregatorRegistry.aggregate(
      await Promise.all(workers.map((r) => r.getMetricsAsJSON())),
    );
    const text = await aggregated.metrics();
    assert.match(text, /^toolgate_approvals_pending\{kind="approve"\} 2$/m);
    assert.match(text, /^toolgate_approvals_oldest_pending_age_seconds\{kind="approve"\} 300$/m);
  } finally {
    await db.close();
  }
});
