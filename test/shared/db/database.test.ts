// One contract for both storage dialects: SQLite always, PostgreSQL when DATABASE_URL is set.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { runMigrations, type Migration } from '../../../src/shared/db/migrations.js';
import { UniqueViolationError, type Database } from '../../../src/shared/db/types.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'items',
    up: 'CREATE TABLE items (id TEXT PRIMARY KEY, qty INTEGER NOT NULL, note TEXT); CREATE INDEX items_qty ON items (qty);',
  },
  {
    version: 2,
    name: 'ledger',
    up: {
      sqlite: 'CREATE TABLE ledger (seq INTEGER PRIMARY KEY AUTOINCREMENT, amount TEXT NOT NULL)',
      postgres: 'CREATE TABLE ledger (seq BIGSERIAL PRIMARY KEY, amount NUMERIC(20,6) NOT NULL)',
    },
  },
];

interface Target {
  readonly name: string;
  readonly skip: string | false;
  open(): Promise<{ db: Database; cleanup(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'sqlite',
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'toolgate-db-'));
      const db = openSqlite({ path: join(dir, 'test.db') });
      return { db, cleanup: async () => db.close() };
    },
  },
  {
    name: 'postgres',
    skip: skipWithoutPostgres,
    async open() {
      const schema = uniqueName('tg_db_test');
      const db = await openPostgres({
        url: DATABASE_URL ?? '',
        schema,
        poolSize: 5,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 10000,
      });
      return {
        db,
        cleanup: async () => {
          await db.close();
          await dropSchema(schema);
        },
      };
    },
  },
];

for (const target of targets) {
  describe(`database contract: ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    let cleanup: () => Promise<void>;

    before(async () => {
      ({ db, cleanup } = await target.open());
      const result = await runMigrations(db, 'contract', MIGRATIONS);
      assert.deepEqual(result, { applied: [1, 2], current: 2 });
    });
    after(async () => cleanup());

    test('migrations are applied once; re-running applies nothing', async () => {
      assert.deepEqual(await runMigrations(db, 'contract', MIGRATIONS), {
        applied: [],
        current: 2,
      });
      const rows = await db.query<{ version: number }>(
        'SELECT version FROM schema_migrations WHERE component = $1 ORDER BY version',
        ['contract'],
      );
      assert.deepEqual(
        rows.map((r) => Number(r.version)),
        [1, 2],
      );
    });

    test('concurrent migration runs serialise and apply each version once', async () => {
      const extra: Migration[] = [
        { version: 1, name: 'x', up: 'CREATE TABLE concurrent_x (a INTEGER)' },
      ];
      const results = await Promise.all(
        [1, 2, 3].map(() => runMigrations(db, 'concurrent', extra)),
      );
      assert.equal(results.flatMap((r) => r.applied).length, 1);
    });

    test('numbered placeholders bind by number, including repeats and reordering', async () => {
      await db.execute('INSERT INTO items (id, qty, note) VALUES ($1, $2, $3)', ['a', 5, 'five']);
      const rows = await db.query<{ id: string; qty: number }>(
        'SELECT id, qty FROM items WHERE qty = $2 AND (id = $1 OR note = $1)',
        ['a', 5],
      );
      assert.deepEqual(rows, [{ id: 'a', qty: 5 }]);
    });

    test('execute reports changed rows', async () => {
      await db.execute('INSERT INTO items (id, qty) VALUES ($1, $2)', ['b', 1]);
      assert.equal(
        await db.execute('UPDATE items SET qty = qty + 1 WHERE id IN ($1, $2)', ['a', 'b']),
        2,
      );
      assert.equal(await db.execute('UPDATE items SET qty = 0 WHERE id = $1', ['missing']), 0);
    });

    test('a unique violation surfaces as UniqueViolationError', async () => {
      await assert.rejects(
        db.execute('INSERT INTO items (id, qty) VALUES ($1, $2)', ['a', 1]),
        UniqueViolationError,
      );
    });

    test('a transaction that throws is rolled back completely', async () => {
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.execute('INSERT INTO items (id, qty) VALUES ($1, $2)', ['rolled', 1]);
          await tx.execute('UPDATE items SET qty = 999 WHERE id = $1', ['a']);
          throw new Error('abort');
        }),
        /abort/,
      );
      assert.deepEqual(await db.query('SELECT id FROM items WHERE id = $1', ['rolled']), []);
      const [row] = await db.query<{ qty: number }>('SELECT qty FROM items WHERE id = $1', ['a']);
      assert.equal(row?.qty, 6);
    });

    test('concurrent transactions do not lose updates', async () => {
      await db.execute('INSERT INTO items (id, qty) VALUES ($1, $2)', ['counter', 0]);
      await Promise.all(
        Array.from({ length: 20 }, () =>
          db.transaction(async (tx) => {
            // Conditional update: the row version read and written in one statement.
            await tx.execute('UPDATE items SET qty = qty + 1 WHERE id = $1', ['counter']);
          }),
        ),
      );
      const [row] = await db.query<{ qty: number }>('SELECT qty FROM items WHERE id = $1', [
        'counter',
      ]);
      assert.equal(row?.qty, 20);
    });

    test('money in a decimal column keeps its exact digits', async () => {
      const [row] = await db.query<{ amount: string | number }>(
        'INSERT INTO ledger (amount) VALUES ($1) RETURNING amount',
        ['12345678901234.123456'],
      );
      assert.equal(String(row?.amount), '12345678901234.123456');
    });

    test('ping succeeds while open', async () => {
      await db.ping();
    });
  });
}

test('sqlite: an unopenable path gives a StoreUnavailableError naming the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-db-'));
  const blocker = join(dir, 'not-a-directory');
  writeFileSync(blocker, 'x');
  const path = join(blocker, 'forbidden.db');
  assert.throws(() => openSqlite({ path }), {
    name: 'StoreUnavailableError',
    message: new RegExp(
      `cannot open SQLite database ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`,
    ),
  });
});

test('postgres: an unreachable server gives an error naming the target with the password masked', async () => {
  await assert.rejects(
    openPostgres({
      url: 'postgres://app:s3cretpassw0rd@127.0.0.1:1/nowhere',
      schema: 'x',
      poolSize: 1,
      connectTimeoutMs: 1000,
      statementTimeoutMs: 1000,
    }),
    (error: Error) => {
      assert.equal(error.name, 'StoreUnavailableError');
      assert.match(
        error.message,
        /cannot connect to PostgreSQL at postgres:\/\/app:%E2%80%A6@127\.0\.0\.1:1\/nowhere/,
      );
      assert.equal(error.message.includes('s3cretpassw0rd'), false);
      return true;
    },
  );
});

// docs/operations.md, "Stores": replicas starting at once on a fresh database. CREATE SCHEMA IF NOT EXISTS
// is not safe against itself: the process that loses the race gets a unique violation on pg_namespace
// although the schema now exists (found by the reference deployment starting five replicas together).
test(
  'postgres: several processes opening the same new schema at once all succeed',
  { skip: skipWithoutPostgres },
  async () => {
    const schema = uniqueName('tg_db_race');
    try {
      const opened = await Promise.allSettled(
        Array.from({ length: 8 }, () =>
          openPostgres({
            url: DATABASE_URL ?? '',
            schema,
            poolSize: 1,
            connectTimeoutMs: 5000,
            statementTimeoutMs: 5000,
          }),
        ),
      );
      const failed = opened.filter((o) => o.status === 'rejected');
      assert.deepEqual(
        failed.map((f) => String((f as PromiseRejectedResult).reason)),
        [],
        'every opening succeeds',
      );
      for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
    } finally {
      await dropSchema(schema);
    }
  },
);
