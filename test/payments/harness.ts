// Builds the payment service for tests against SQLite (in memory) or PostgreSQL (own schema per run,
// dropped afterwards). `forEachStore` runs a suite once per available store.
import { describe, type TestContext } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config/load.js';
import type { FrozenConfig } from '../../src/config/schema.js';
import { createLogger } from '../../src/shared/log/logger.js';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { openPostgres } from '../../src/shared/db/postgres.js';
import { runMigrations } from '../../src/shared/db/migrations.js';
import type { Database } from '../../src/shared/db/types.js';
import { buildPaymentsApp } from '../../src/payments/app.js';
import { demoIbanFor } from '../../src/payments/domain/demo-account.js';
import { paymentMigrations } from '../../src/payments/storage/migrations.js';
import { directoryMigrations } from '../../src/payments/directory/migrations.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../helpers/infra.js';
import { LogCapture } from '../helpers/capture.js';

export const GATEWAY_SECRET = 'test-gateway-secret-0123456789';
export const OPERATOR_TOKEN = 'test-operator-token-abcdefghij';
export const BASE = '/payments/payment-order/v1';

export type StoreKind = 'sqlite' | 'postgres';

export interface Harness {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly config: FrozenConfig;
  readonly logs: LogCapture;
  close(): Promise<void>;
}

export async function openHarness(
  kind: StoreKind,
  options: { overrides?: Record<string, unknown>; now?: () => Date; logLevel?: string } = {},
): Promise<Harness> {
  const schema = uniqueName('payments_test');
  const config = loadConfig({
    env: {},
    overrides: {
      logging: { level: 'warn' },
      payments: {
        identity: { sharedSecret: GATEWAY_SECRET },
        operator: { tokens: [OPERATOR_TOKEN] },
        // Most suites send the same sample order many times on purpose; the duplicate check (issue 26,
        // item 8) is on by default in the service and switched on again by the suites that test it.
        duplicates: { windowSeconds: 0 },
        // Standing rates (no asOf: no age) so that payments in another currency than their EUR payer
        // account can have their funds checked (issue 26, item 1); fee suites configure their own.
        fees: {
          rates: {
            source: 'test rates (not market data)',
            pairs: {
              'EUR/USD': { mid: 1.16 },
              'EUR/GBP': { mid: 0.88 },
              'EUR/CHF': { mid: 0.93 },
              'EUR/JPY': { mid: 180.5 },
              'EUR/KWD': { mid: 0.355 },
            },
          },
        },
        ...(options.overrides ?? {}),
      },
    },
  });
  const db =
    kind === 'sqlite'
      ? openSqlite({ path: ':memory:' })
      : await openPostgres({
          url: DATABASE_URL ?? '',
          schema,
          poolSize: 25,
          connectTimeoutMs: 5000,
          statementTimeoutMs: 15000,
        });
  await runMigrations(db, 'payments', paymentMigrations);
  // The bank directory is consulted at acceptance (issue 26, item 2), as in the service.
  await runMigrations(db, 'bank-directory', directoryMigrations);
  const logs = new LogCapture();
  const { logger } = createLogger({ level: options.logLevel ?? 'warn', destination: logs });
  const app = await buildPaymentsApp({
    config,
    logger,
    db,
    ...(options.now ? { now: options.now } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    config,
    logs,
    async close() {
      await app.close();
      await db.close();
      if (kind === 'postgres') await dropSchema(schema);
    },
  };
}

/** Runs `suite` once against SQLite and once against PostgreSQL (skipped without DATABASE_URL). */
export function forEachStore(name: string, suite: (kind: StoreKind) => void): void {
  describe(`${name} [sqlite]`, () => suite('sqlite'));
  describe(`${name} [postgres]`, { skip: skipWithoutPostgres }, () => suite('postgres'));
}

export function userHeaders(
  userId: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { 'x-toolgate-gateway-key': GATEWAY_SECRET, 'x-user-id': userId, ...extra };
}

export function send(
  h: Harness,
  userId: string | undefined,
  method: InjectOptions['method'],
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method,
    url: path.startsWith('/') ? path : `${BASE}/${path}`,
    headers: { ...(userId ? userHeaders(userId) : {}), ...headers },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

/** The payer account of `samplePayment` and of the SEPA and SWIFT fixtures (EUR). */
export const SAMPLE_PAYER = 'DE89370400440532013000';
/** The payer account of the US ACH and Fedwire fixtures (USD). */
export const US_PAYER = '483101090354';

/**
 * The account reference of `user`'s own demo account: the one EUR account (EUR 5,000.00 opening balance)
 * the service opens for every user on the first call that needs it.
 */
export function ownAccount(user: string): Record<string, unknown> {
  return { paymentInstructionAccount: { accountId: demoIbanFor(user), numberType: 'IBAN' } };
}

/**
 * Records `owner` as holding `accountId` at the bank: the accounts the payer rules check a user's payment
 * against (a user may pay only from these).
 */
export async function holdAccount(
  db: Database,
  owner: string,
  accountId: string,
  options: { currency?: string; openingBalance?: string } = {},
): Promise<void> {
  await db.execute(
    `INSERT INTO demo_accounts (owner, account_id, currency, opening_balance, opened_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (owner, account_id) DO NOTHING`,
    [
      owner,
      accountId,
      options.currency ?? 'EUR',
      options.openingBalance ?? '5000.00',
      '2026-01-01T00:00:00.000Z',
    ],
  );
}

/** Records `user` as the holder of the sample payer accounts, with 1,000,000.00 in each (EUR, USD). */
export async function holdSampleAccounts(db: Database, user: string): Promise<void> {
  await holdAccount(db, user, SAMPLE_PAYER, { openingBalance: '1000000.00' });
  await holdAccount(db, user, US_PAYER, { currency: 'USD', openingBalance: '1000000.00' });
}

/** A small valid payment record (EUR 125.50 from SAMPLE_PAYER: see holdSampleAccounts). */
export function samplePayment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    payerAccountReference: {
      paymentInstructionAccount: { accountId: SAMPLE_PAYER, numberType: 'IBAN' },
    },
    payeeAccountReference: {
      paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819', numberType: 'IBAN' },
    },
    payeeReference: { involvedParty: { partyName: 'Ada Lovelace', partyType: 'PERSON' } },
    paymentInstruction: {
      amount: { instructedAmount: 125.5, instructedCurrency: 'EUR', amountType: 'PRINCIPAL' },
      chargeBearer: 'SHAR',
    },
    paymentProcessingConfiguration: {
      remittanceInfo: { type: 'UNSTRUCTURED', content: 'Invoice 42' },
    },
    ...overrides,
  };
}

export function json(res: LightMyRequestResponse): Record<string, unknown> {
  return res.json() as Record<string, unknown>;
}

export type { TestContext };
