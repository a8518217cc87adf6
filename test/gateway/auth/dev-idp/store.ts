// The gateway database the development authorization server keeps its state in, for tests: the embedded
// SQLite store in a test's folder, or (`postgresSchema`) a PostgreSQL schema of its own; migrated.
import { after } from 'node:test';
import { loadConfig } from '../../../../src/config/load.js';
import { openGatewayDatabase } from '../../../../src/gateway/database.js';
import type { Database } from '../../../../src/shared/db/types.js';
import { DATABASE_URL } from '../../../helpers/infra.js';

/**
 * Opens (and migrates) the store. Called in a test, it is closed when the file's tests end; called in a
 * hook (where `after` would run at once), pass closeAfter false and close it yourself.
 */
export async function openTestStore(
  dataDir: string,
  postgresSchema?: string,
  closeAfter = true,
): Promise<Database> {
  const database =
    postgresSchema === undefined ? {} : { database: { url: DATABASE_URL, schema: postgresSchema } };
  const config = loadConfig({ env: {}, overrides: { dataDir, gateway: database } });
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  if (closeAfter) after(() => db.close());
  return db;
}
