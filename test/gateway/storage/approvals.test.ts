// Stored tool approvals in both dialects: upsert, override, read back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApprovalRepository } from '../../../src/gateway/storage/approvals.js';
import { gatewayMigrations } from '../../../src/gateway/storage/migrations.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';

async function exercise(db: Database): Promise<void> {
  await runMigrations(db, 'gateway', gatewayMigrations);
  const repo = new ApprovalRepository(db);
  assert.equal((await repo.load()).size, 0);
  await repo.set('createPayment', 'approved', 'cli:alice', new Date('2026-11-22T05:00:00.000Z'));
  await repo.set('cancelPayment', 'revoked', 'cli:alice');
  await repo.set('createPayment', 'revoked', 'cli:bob', new Date('2026-11-22T06:00:00.000Z'));
  const state = await repo.load();
  assert.deepEqual([...state.entries()].sort(), [
    ['cancelPayment', 'revoked'],
    ['createPayment', 'revoked'],
  ]);
  const records = await repo.list();
  assert.deepEqual(
    records.find((r) => r.toolName === 'createPayment'),
    {
      toolName: 'createPayment',
      state: 'revoked',
      updatedAt: '2026-11-22T06:00:00.000Z',
      updatedBy: 'cli:bob',
    },
  );
  await assert.rejects(
    db.execute(`INSERT INTO gateway_tool_approvals VALUES ('x', 'maybe', 't', 'u')`),
    'state is constrained',
  );
}

test('approvals: SQLite', async () => {
  const db = await openSqlite({ path: ':memory:' });
  try {
    await exercise(db);
  } finally {
    await db.close();
  }
});

test('approvals: PostgreSQL', { skip: skipWithoutPostgres }, async () => {
  const schema = uniqueName('gw_approvals');
  const db = await openPostgres({
    url: DATABASE_URL ?? '',
    schema,
    poolSize: 2,
    connectTimeoutMs: 5000,
    statementTimeoutMs: 5000,
  });
  try {
    await exercise(db);
  } finally {
    await db.close();
    await dropSchema(schema);
  }
});
