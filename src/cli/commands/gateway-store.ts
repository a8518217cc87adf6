// Opens the gateway's database (migrated) for administrative commands such as `keys` and `tools`, after
// checking that it is there (store-location.ts): a command run from the wrong folder says where it looked.
import type { FrozenConfig } from '../../config/schema.js';
import { requireStore, storeLocation, type StoreLocation } from '../store-location.js';
import type { Database } from '../../shared/db/types.js';
import { openGatewayDatabase } from '../../gateway/database.js';

export async function openGatewayStore(
  config: FrozenConfig,
  options: { readonly mayCreate: boolean },
): Promise<{ db: Database; location: StoreLocation }> {
  const location = storeLocation(config.gateway.database, config.dataDir);
  requireStore(location, config.dataDir, options);
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  return { db, location };
}
