// The admin listener as a Service: opens the gateway database (migrated, admin tables included), builds
// the admin app (API and portal), and closes the database after the HTTP side.
import type { FrozenConfig } from '../../config/schema.js';
import type { Logger } from '../../shared/log/logger.js';
import { assembleService, type Service } from '../../shared/service.js';
import { openGatewayDatabase } from '../database.js';
import { createAdminApp } from './app.js';

export async function openAdminService(config: FrozenConfig, logger: Logger): Promise<Service> {
  const log = logger.child({ service: 'admin' });
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  try {
    const app = await createAdminApp({ config, logger: log, db });
    return assembleService({
      name: 'admin',
      app,
      host: config.admin.host,
      port: config.admin.port,
      resources: [db],
    });
  } catch (error) {
    await db.close();
    throw error;
  }
}
