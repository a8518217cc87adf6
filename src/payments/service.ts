// Opens the payment service's database (migrated), builds its app and returns it as a Service.
import type { FrozenConfig } from '../config/schema.js';
import type { Logger } from '../shared/log/logger.js';
import { openDatabase } from '../shared/db/open.js';
import { runMigrations } from '../shared/db/migrations.js';
import { assembleService, type Service } from '../shared/service.js';
import { paymentMigrations } from './storage/migrations.js';
import { buildPaymentsApp } from './app.js';
import { directoryMigrations } from './directory/migrations.js';
import { loadSampleIfEmpty } from './directory/sample.js';
import { DeliveryWorker } from './notifications/delivery-worker.js';

export async function openPaymentsService(config: FrozenConfig, logger: Logger): Promise<Service> {
  const log = logger.child({ service: 'payments' });
  const db = await openDatabase(config.payments.database, config.dataDir);
  try {
    await runMigrations(db, 'payments', paymentMigrations);
    await runMigrations(db, 'bank-directory', directoryMigrations);
    if (config.payments.bankLookup.loadSampleOnStart) await loadSampleIfEmpty(db);
    const app = await buildPaymentsApp({ config, logger: log, db });
    // Status notifications: every replica runs a delivery worker (claims are leased), stopped before the
    // database closes.
    const webhooks = new DeliveryWorker({
      db,
      endpoints: config.payments.webhooks,
      settings: config.payments.webhookDelivery,
      logger: log.child({ component: 'webhooks' }),
    });
    if (config.payments.webhookDelivery.enabled) webhooks.start();
    return assembleService({
      name: 'payments',
      app,
      host: config.payments.host,
      port: config.payments.port,
      resources: [webhooks, db],
    });
  } catch (error) {
    await db.close();
    throw error;
  }
}
