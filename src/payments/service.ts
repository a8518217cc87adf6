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
import { startEngineRunner, type EngineRunner } from './engine/runner.js';
import { RateSource } from './usecases/rates.js';
import type { Database } from '../shared/db/types.js';
import { DeliveryWorker } from './notifications/delivery-worker.js';
import type { EngineMetrics, PaymentsMetrics } from './metrics.js';

export async function openPaymentsService(config: FrozenConfig, logger: Logger): Promise<Service> {
  const log = logger.child({ service: 'payments' });
  const db = await openDatabase(config.payments.database, config.dataDir);
  try {
    await runMigrations(db, 'payments', paymentMigrations);
    await runMigrations(db, 'bank-directory', directoryMigrations);
    if (config.payments.bankLookup.loadSampleOnStart) await loadSampleIfEmpty(db);
    let metrics: PaymentsMetrics | undefined;
    const app = await buildPaymentsApp({
      config,
      logger: log,
      db,
      onMetrics: (built) => (metrics = built),
    });
    const engine = config.payments.engine.enabled
      ? startServiceEngine(config, db, log.child({ component: 'engine' }), metrics?.engine)
      : undefined;
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
      // The engine stops (its run in progress finishes) and the webhook worker stops before the
      // database closes.
      resources: engine ? [{ close: () => engine.stop() }, webhooks, db] : [webhooks, db],
    });
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** The execution engine of `payments.engine`, polling on the system clock, logging what it did. */
function startServiceEngine(
  config: FrozenConfig,
  db: Database,
  log: Logger,
  metrics: EngineMetrics | undefined,
): EngineRunner {
  const rates = new RateSource(config.payments.fees.rates, (err, file) =>
    log.warn({ err, file }, 'rate file unreadable; the last good rates stay in use'),
  );
  return startEngineRunner({
    db,
    fees: config.payments.fees,
    rates: () => rates.current(),
    batchSize: config.payments.engine.batchSize,
    pollIntervalMs: config.payments.engine.pollIntervalMs,
    now: () => new Date(),
    onReport: (report) => {
      metrics?.ran(report);
      for (const step of report.steps) log.info(step, 'payment transition');
      for (const failure of report.failures) log.error(failure, 'payment transition failed');
    },
    onError: (err) => {
      metrics?.failed();
      log.error({ err }, 'engine run failed');
    },
  });
}
