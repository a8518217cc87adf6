// Opens the database a service is configured for: PostgreSQL when a URL is set, else the SQLite file.
import { isAbsolute, join } from 'node:path';
import type { DatabaseConfig } from '../../config/schema.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';
import type { Database } from './types.js';

export async function openDatabase(
  config: Readonly<DatabaseConfig>,
  dataDir: string,
): Promise<Database> {
  if (config.url !== undefined) {
    return openPostgres({
      url: config.url,
      schema: config.schema,
      poolSize: config.poolSize,
      connectTimeoutMs: config.connectTimeoutMs,
      statementTimeoutMs: config.statementTimeoutMs,
    });
  }
  const path =
    config.sqlitePath === ':memory:' || isAbsolute(config.sqlitePath)
      ? config.sqlitePath
      : join(dataDir, config.sqlitePath);
  return openSqlite({ path, busyTimeoutMs: config.statementTimeoutMs });
}
