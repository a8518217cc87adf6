// The live admin tables in both dialects: identity-provider versions (append, current, history, a null
// version), tool settings (put, replace, delete by empty settings), an approval moved by a rename, and the
// catalogue generation raised inside a transaction that rolls back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdpSettingsRepository } from '../../../src/gateway/admin/identity-provider/store.js';
import type { IdpSettings } from '../../../src/gateway/admin/identity-provider/settings.js';
import { ApprovalRepository } from '../../../src/gateway/storage/approvals.js';
import {
  CatalogueGenerationRepository,
  bumpGeneration,
} from '../../../src/gateway/storage/catalogue-generation.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { ToolSettingsRepository } from '../../../src/gateway/storage/tool-settings.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';

const SETTINGS: IdpSettings = {
  mode: 'required',
  issuer: 'https://idp.example.test',
  audience: 'https://gw.example.test/mcp',
  forwardClaims: [{ claim: 'email', header: 'X-User-Email' }],
};

async function exercise(db: Database): Promise<void> {
  await migrateGatewayDatabase(db);
  const versions = new IdpSettingsRepository(db);
  assert.equal(await versions.latestVersion(), 0);
  assert.equal(await versions.current(), undefined);
  const at = new Date('2026-11-25T10:00:00.000Z');
  const first = await db.transaction((tx) => versions.append(tx, SETTINGS, 'alice', at));
  assert.equal(first.version, 1);
  await db.transaction((tx) => versions.append(tx, null, 'bob', at, 0));
  assert.equal(await versions.latestVersion(), 2);
  assert.deepEqual(await versions.current(), {
    version: 2,
    settings: null,
    createdAt: at.toISOString(),
    createdBy: 'bob',
    revertedFrom: 0,
  });
  assert.deepEqual((await versions.get(1))?.settings, SETTINGS);
  assert.deepEqual(
    (await versions.list()).map((v) => v.version),
    [2, 1],
  );

  const tools = new ToolSettingsRepository(db);
  await db.transaction((tx) => tools.put(tx, 'getPayment', { title: 'A' }, 'alice', at));
  await db.transaction((tx) =>
    tools.put(tx, 'getPayment', { title: 'B', securityClass: 'user-scoped' }, 'bob', at),
  );
  assert.deepEqual(
    await tools.load(),
    new Map([['getPayment', { title: 'B', securityClass: 'user-scoped' }]]),
  );
  assert.equal((await tools.list())[0]?.updatedBy, 'bob');
  await db.transaction((tx) => tools.put(tx, 'getPayment', {}, 'bob', at));
  assert.equal((await tools.load()).size, 0);

  const approvals = new ApprovalRepository(db);
  await approvals.set('getPayment', 'revoked', 'alice', at);
  await db.transaction((tx) => approvals.rename(tx, 'getPayment', 'readPayment'));
  assert.deepEqual([...(await approvals.load())], [['readPayment', 'revoked']]);

  const generations = new CatalogueGenerationRepository(db);
  await assert.rejects(
    db.transaction(async (tx) => {
      await bumpGeneration(tx, 'alice', at);
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.equal(await generations.current(), 0, 'the bump rolled back with its transaction');
  assert.equal(await db.transaction((tx) => bumpGeneration(tx, 'alice', at)), 1);
}

test('live admin stores: SQLite', async () => {
  const db = openSqlite({ path: ':memory:' });
  try {
    await exercise(db);
  } finally {
    await db.close();
  }
});

test('live admin stores: PostgreSQL', { skip: skipWithoutPostgres }, async () => {
  const schema = uniqueName('gw_live_admin');
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
