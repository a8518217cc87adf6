// Databases for the admin plane's suites: SQLite always, PostgreSQL (own schema, dropped afterwards) when
// DATABASE_URL is set; both migrated exactly as the gateway migrates its database.
import { loadConfig } from '../../../src/config/load.js';
import type { FrozenConfig } from '../../../src/config/schema.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import type { Actor } from '../../../src/gateway/admin/actor.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';

export interface OpenedDatabase {
  readonly db: Database;
  close(): Promise<void>;
}

export interface DatabaseTarget {
  readonly name: 'sqlite' | 'postgres';
  readonly skip: string | false;
  /** A fresh database, migrated as the gateway migrates it unless `migrated` is false. */
  open(migrated?: boolean): Promise<OpenedDatabase>;
}

export const DATABASE_TARGETS: readonly DatabaseTarget[] = [
  {
    name: 'sqlite',
    skip: false,
    open: async (migrated = true) => {
      const db = openSqlite({ path: ':memory:' });
      if (migrated) await migrateGatewayDatabase(db);
      return { db, close: () => db.close() };
    },
  },
  {
    name: 'postgres',
    skip: skipWithoutPostgres,
    open: async (migrated = true) => {
      const schema = uniqueName('tg_admin');
      const db = await openPostgres({
        url: DATABASE_URL ?? '',
        schema,
        poolSize: 5,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 10000,
      });
      if (migrated) await migrateGatewayDatabase(db);
      return {
        db,
        close: async () => {
          await db.close();
          await dropSchema(schema);
        },
      };
    },
  },
];

export function testConfig(overrides: Record<string, unknown> = {}): FrozenConfig {
  return loadConfig({ env: {}, overrides: { logging: { level: 'silent' }, ...overrides } });
}

export const ISSUER = 'https://idp.example.test';
export const ADMIN: Actor = {
  role: 'admin',
  subject: 'admin-1',
  issuer: ISSUER,
  via: 'bearer-token',
};
export const ALICE: Actor = {
  role: 'developer',
  subject: 'alice',
  issuer: ISSUER,
  via: 'bearer-token',
};
export const BOB: Actor = {
  role: 'developer',
  subject: 'bob',
  issuer: ISSUER,
  via: 'bearer-token',
};

export const REQUEST = {
  application: 'shop-agent',
  owner: { name: 'Alice', email: 'alice@example.com' },
  tools: ['getPayment', 'fetchBankDetails'],
  environments: ['development', 'production'],
  justification: 'checkout assistant',
} as const;
