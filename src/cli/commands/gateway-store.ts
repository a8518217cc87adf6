// Opens the gateway's database (migrated) for administrative commands such as `keys`.
import type { FrozenConfig } from '../../config/schema.js';
import { openDatabase } from '../../shared/db/open.js';
import { runMigrations } from '../../shared/db/migrations.js';
import type { Database } from '../../shared/db/types.js';
import { subscriptionMigrations } from '../../gateway/auth/subscriptions/migrations.js';

export async function openGatewayStore(config: FrozenConfig): Promise<Database> {
  const db = await openDatabase(config.gateway.database, config.dataDir);
  try {
    await runMigrations(db, 'subscriptions', subscriptionMigrations);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
