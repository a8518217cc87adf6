// The one way to open the gateway's database: the listening service, the admin plane, the management
// commands and the tests all get a store with every migration of the gateway database applied (approvals,
// subscriptions and the admin plane). The one module that knows every component's tables, so it sits
// beside the data plane and the admin plane rather than in either (docs/architecture.md, boundaries).
import type { DatabaseConfig } from '../config/schema.js';
import { openDatabase } from '../shared/db/open.js';
import { runMigrations } from '../shared/db/migrations.js';
import type { Database } from '../shared/db/types.js';
import { gatewayMigrations } from './storage/migrations.js';
import { subscriptionMigrations } from './auth/subscriptions/migrations.js';
import { adminMigrations } from './admin/migrations.js';
import { policyMigrations } from './governance/policy/migrations.js';
import { consentMigrations } from './governance/consent/migrations.js';
import { devIdpMigrations } from './auth/dev-idp/migrations.js';

/** Applies the gateway's migrations (idempotent; concurrent runs serialise). */
export async function migrateGatewayDatabase(db: Database): Promise<void> {
  await runMigrations(db, 'gateway', gatewayMigrations);
  await runMigrations(db, 'subscriptions', subscriptionMigrations);
  await runMigrations(db, 'admin', adminMigrations);
  await runMigrations(db, 'policies', policyMigrations);
  await runMigrations(db, 'consent', consentMigrations);
  await runMigrations(db, 'dev-idp', devIdpMigrations);
}

/** Opens the configured gateway database and migrates it; closes it again if that fails. */
export async function openGatewayDatabase(
  config: Readonly<DatabaseConfig>,
  dataDir: string,
): Promise<Database> {
  const db = await openDatabase(config, dataDir);
  try {
    await migrateGatewayDatabase(db);
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
