// A migrated bank-directory database for tests: SQLite in memory, or PostgreSQL in its own schema
// (dropped afterwards) when DATABASE_URL is set.
import { describe } from 'node:test';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import type { Database } from '../../../src/shared/db/types.js';
import { directoryMigrations } from '../../../src/payments/directory/migrations.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface DirectoryDb {
  readonly db: Database;
  close(): Promise<void>;
}

export async function openDirectoryDb(kind: StoreKind): Promise<DirectoryDb> {
  const schema = uniqueName('directory_test');
  const db =
    kind === 'sqlite'
      ? openSqlite({ path: ':memory:' })
      : await openPostgres({
          url: DATABASE_URL ?? '',
          schema,
          poolSize: 5,
          connectTimeoutMs: 5000,
          statementTimeoutMs: 30000,
        });
  await runMigrations(db, 'bank-directory', directoryMigrations);
  return {
    db,
    async close() {
      await db.close();
      if (kind === 'postgres') await dropSchema(schema);
    },
  };
}

export function forEachDirectoryStore(name: string, suite: (kind: StoreKind) => void): void {
  describe(`${name} [sqlite]`, () => suite('sqlite'));
  describe(`${name} [postgres]`, { skip: skipWithoutPostgres }, () => suite('postgres'));
}
