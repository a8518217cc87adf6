// Real infrastructure for the suites that need it. PostgreSQL and Redis suites run when DATABASE_URL /
// REDIS_URL are set (CI sets them) and are skipped with a visible reason otherwise. Every run gets its
// own schema / key prefix and removes it afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DATABASE_URL = process.env.DATABASE_URL || undefined;
export const REDIS_URL = process.env.REDIS_URL || undefined;

export const skipWithoutPostgres = DATABASE_URL
  ? false
  : 'DATABASE_URL not set: PostgreSQL suite skipped';
export const skipWithoutRedis = REDIS_URL ? false : 'REDIS_URL not set: Redis suite skipped';

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  if (!DATABASE_URL) return;
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
