// The admin listener as a Service: opens the gateway database (migrated, admin tables included), builds
// the admin app with every installed extension, and closes the database after the HTTP side.
import type { FrozenConfig } from '../../config/schema.js';
import type { Logger } from '../../shared/log/logger.js';
import { assembleService, type Service } from '../../shared/service.js';
import { openGatewayDatabase } from '../storage/database.js';
import { openLiveIdentity } from '../auth/live-identity.js';
import { createAdminApp, type CreateAdminAppOptions } from './app.js';

export type AdminServiceOptions = Pick<
  CreateAdminAppOptions,
  'extensions' | 'extraRoutes' | 'portal' | 'verifier'
>;

export async function openAdminService(
  config: FrozenConfig,
  logger: Logger,
  options: AdminServiceOptions = {},
): Promise<Service> {
  const log = logger.child({ service: 'admin' });
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  try {
    // User tokens are verified with the identity-provider settings in force, stored ones included.
    const identity =
      options.verifier === undefined ? await openLiveIdentity(config, log, db) : undefined;
    const app = await createAdminApp({
      config,
      logger: log,
      db,
      ...(identity ? { verifier: () => identity.jwt?.verifier ?? null } : {}),
      ...options,
    });
    if (identity) app.addHook('onClose', async () => identity.close());
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
