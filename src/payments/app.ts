// Builds the payment service HTTP application from options, without listening.
import type { FastifyInstance } from 'fastify';
import type { FrozenConfig } from '../config/schema.js';
import type { Logger } from '../shared/log/logger.js';
import type { Database } from '../shared/db/types.js';
import { createHttpApp } from '../shared/http/create-app.js';
import { readOpenApiDocument } from './http/documents.js';
import { createOperationValidator } from './http/validation.js';
import type { PaymentsContext } from './http/context.js';
import { createIdentityResolver } from './identity/resolver.js';
import { IdempotencyStore } from './storage/idempotency.js';
import { paymentRoutes } from './routes/payments.js';
import { operatorRoutes } from './routes/operator.js';
import { notificationRoutes } from './routes/notifications.js';
import { accountRoutes } from './routes/accounts.js';
import { feeRoutes } from './routes/fees.js';
import { bankDetailsRoutes } from './routes/bank-details.js';
import { DirectoryStore } from './directory/store.js';
import { RateSource } from './usecases/rates.js';
import { directoryModes } from '../config/payments-directory.js';
import { createPaymentsMetrics, type PaymentsMetrics } from './metrics.js';

export const PAYMENT_ORDER_BASE_PATH = '/payments/payment-order/v1';
export const ACCOUNTS_BASE_PATH = '/accounts/v1';

export interface PaymentsAppOptions {
  readonly config: FrozenConfig;
  readonly logger: Logger;
  readonly db: Database;
  /** Clock (tests pin it); defaults to the system clock. */
  readonly now?: () => Date;
  /** Called with the metrics built for `payments.metrics` (the service counts its engine's runs there). */
  readonly onMetrics?: (metrics: PaymentsMetrics) => void;
}

export async function buildPaymentsApp(options: PaymentsAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = createHttpApp({
    logger: options.logger,
    bodyLimitBytes: config.payments.bodyLimitBytes,
    requestTimeoutMs: config.payments.requestTimeoutMs,
    keepAliveTimeoutMs: config.payments.keepAliveTimeoutMs,
    readiness: [{ name: 'database', check: () => db.ping() }],
  });
  const now = options.now ?? (() => new Date());
  const paymentOrder = readOpenApiDocument('payment-order');
  const accounts = readOpenApiDocument('accounts');
  const idempotency = new IdempotencyStore(db, {
    ttlMs: config.payments.idempotency.ttlSeconds * 1000,
    staleAfterMs: config.payments.requestTimeoutMs + 5000,
    now: () => now().getTime(),
  });
  const rates = new RateSource(config.payments.fees.rates, (err, file) =>
    app.log.warn({ err, file }, 'exchange rate file unreadable; keeping the previous rates'),
  );
  const ctx: PaymentsContext = {
    db,
    validator: createOperationValidator(paymentOrder),
    identity: createIdentityResolver(config),
    idempotency,
    now,
    acceptance: {
      fees: config.payments.fees,
      rates,
      duplicateWindowMs: config.payments.duplicates.windowSeconds * 1000,
    },
    directoryModes: directoryModes(config.payments.directory),
  };
  const accountsCtx: PaymentsContext = { ...ctx, validator: createOperationValidator(accounts) };
  if (config.payments.metrics.enabled) {
    const metrics = createPaymentsMetrics({
      path: config.payments.metrics.path,
      db,
      fees: config.payments.fees,
      now,
    });
    metrics.register(app);
    app.addHook('onClose', async () => metrics.close());
    options.onMetrics?.(metrics);
  }

  const purge = setInterval(() => {
    idempotency
      .purgeExpired()
      .catch((err: unknown) => app.log.warn({ err }, 'idempotency purge failed'));
  }, config.payments.idempotency.purgeIntervalSeconds * 1000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));

  await app.register(paymentRoutes, {
    ctx,
    document: paymentOrder,
    basePath: PAYMENT_ORDER_BASE_PATH,
    prefix: PAYMENT_ORDER_BASE_PATH,
  });
  await app.register(feeRoutes, {
    ctx,
    fees: config.payments.fees,
    rates,
    prefix: PAYMENT_ORDER_BASE_PATH,
  });
  await app.register(bankDetailsRoutes, {
    ctx,
    store: new DirectoryStore(db),
    bankLookup: config.payments.bankLookup,
    prefix: PAYMENT_ORDER_BASE_PATH,
  });
  await app.register(accountRoutes, {
    ctx: accountsCtx,
    document: accounts,
    prefix: ACCOUNTS_BASE_PATH,
  });
  await app.register(operatorRoutes, { ctx, tokens: config.payments.operator.tokens });
  await app.register(notificationRoutes, { ctx, tokens: config.payments.operator.tokens });
  return app;
}
