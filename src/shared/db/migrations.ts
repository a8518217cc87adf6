// One versioned migrations runner for both dialects. Each component (gateway, payments, directory …)
// owns an ordered list; every migration runs in its own transaction together with its bookkeeping row,
// so a crash never leaves a half-applied version. Concurrent starters are serialised (PostgreSQL
// advisory lock; SQLite BEGIN IMMEDIATE).
import type { Database, SqlExecutor } from './types.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** One script for both dialects, or one per dialect where they differ. */
  readonly up: string | { readonly sqlite: string; readonly postgres: string };
}

export interface MigrationResult {
  readonly applied: readonly number[];
  readonly current: number;
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS schema_migrations (
  component TEXT NOT NULL,
  version INTEGER NOT NULL,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  PRIMARY KEY (component, version)
)`;

export async function runMigrations(
  db: Database,
  component: string,
  migrations: readonly Migration[],
): Promise<MigrationResult> {
  assertOrdered(component, migrations);
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(BOOKKEEPING);
  });
  const applied: number[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await lock(tx);
      const done = await tx.query(
        'SELECT 1 FROM schema_migrations WHERE component = $1 AND version = $2',
        [component, migration.version],
      );
      if (done.length > 0) return false;
      await tx.exec(typeof migration.up === 'string' ? migration.up : migration.up[tx.dialect]);
      await tx.execute(
        'INSERT INTO schema_migrations (component, version, name, applied_at) VALUES ($1, $2, $3, $4)',
        [component, migration.version, migration.name, new Date().toISOString()],
      );
      return true;
    });
    if (ran) applied.push(migration.version);
  }
  const rows = await db.query<{ v: number | null }>(
    'SELECT MAX(version) AS v FROM schema_migrations WHERE component = $1',
    [component],
  );
  return { applied, current: Number(rows[0]?.v ?? 0) };
}

/** One lock for all migrations of a schema: DDL of different components must not race either. */
async function lock(tx: SqlExecutor): Promise<void> {
  if (tx.dialect === 'postgres') {
    await tx.query(
      "SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':toolgate:migrations'))",
    );
  }
}

function assertOrdered(component: string, migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(
        `${component} migrations must be numbered 1..n without gaps (found ${m.version} at ${i + 1})`,
      );
    }
  });
}
