// Opens the gateway's database (migrated) for administrative commands such as `keys`, after checking
// that it is there (store-location.ts): a command run from the wrong folder says where it looked.
import type { FrozenConfig } from '../../config/schema.js';
import { requireStore, storeLocation, type StoreLocation } from '../store-location.js';
import { openDatabase } from '../../shared/db/open.js';
import { runMigrations } from '../../shared/db/migrations.js';
import type { Database } from '../../shared/db/types.js';
import { subscriptionMigrations } from '../../gateway/auth/subscriptions/migrations.js';

export async function openGatewayStore(
  config: FrozenConfig,
  options: { readonly mayCreate: boolean },
): Promise<{ db: Database; location: StoreLocation }> {
  const location = storeLocation(config.gateway.database, config.dataDir);
  requireStore(location, config.dataDir, options);
  const db = await openDatabase(config.gateway.database, config.dataDir);
  try {
    await runMigrations(db, 'subscriptions', subscriptionMigrations);
    return { db, location };
  } catch (error) {
    await db.close();
    throw error;
  }
}
