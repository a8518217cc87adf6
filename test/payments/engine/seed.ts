// A payment store shared with real `toolgate` processes (a SQLite file, or a PostgreSQL schema), seeded
// with payments long due, and the checks that every one of them was executed exactly once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import type { Database } from '../../../src/shared/db/types.js';
import { buildPaymentsApp } from '../../../src/payments/app.js';
import { demoIbanFor } from '../../../src/payments/domain/demo-account.js';
import { paymentMigrations } from '../../../src/payments/storage/migrations.js';
import { directoryMigrations } from '../../../src/payments/directory/migrations.js';
import { balanceOf, trialBalance } from '../../../src/payments/storage/ledger-repo.js';
import { instancesOf, statusHistory } from '../../../src/payments/storage/payments-repo.js';
import { DATABASE_URL, dropSchema, uniqueName } from '../../helpers/infra.js';
import { LogCapture } from '../../helpers/capture.js';
import { GATEWAY_SECRET, userHeaders, type StoreKind } from '../harness.js';
import { transfer } from './helpers.js';

export interface SharedStore {
  readonly db: Database;
  readonly configFile: string;
  /** The seeded one-off payments, each of `amount` from one of `payers` to bob. */
  readonly payments: readonly string[];
  /** A daily standing order of `instances` instances, all long due. */
  readonly standingOrder: string;
  readonly instances: number;
  readonly payers: readonly string[];
  readonly amount: number;
  close(): Promise<void>;
}

export async function openSharedStore(
  kind: StoreKind,
  options: { payments: number; engine: Record<string, unknown>; logLevel?: string },
): Promise<SharedStore> {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolgate-engine-'));
  const schema = uniqueName('payments_engine');
  const database = kind === 'postgres' ? { url: DATABASE_URL, schema } : {};
  const configFile = path.join(dir, 'config.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      dataDir: dir,
      logging: { level: options.logLevel ?? 'warn' },
      payments: {
        port: 0,
        identity: { sharedSecret: GATEWAY_SECRET },
        engine: options.engine,
        database,
      },
    }),
  );
  const db =
    kind === 'sqlite'
      ? openSqlite({ path: path.join(dir, 'payments.db') })
      : await openPostgres({
          url: DATABASE_URL ?? '',
          schema,
          poolSize: 5,
          connectTimeoutMs: 5000,
          statementTimeoutMs: 15000,
        });
  await runMigrations(db, 'payments', paymentMigrations);
  // The bank directory is consulted at acceptance, as in the service.
  await runMigrations(db, 'bank-directory', directoryMigrations);
  // Seeded on Monday 5 January 2026 at 09:00 UTC: every payment was due that evening, long ago.
  const config = loadConfig({
    env: {},
    // The seed sends many identical orders on purpose (as test/payments/harness.ts): no duplicate check.
    overrides: {
      payments: { identity: { sharedSecret: GATEWAY_SECRET }, duplicates: { windowSeconds: 0 } },
    },
  });
  const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
  const app = await buildPaymentsApp({
    config,
    logger,
    db,
    now: () => new Date('2026-01-05T09:00:00Z'),
  });
  const payers = Array.from({ length: 10 }, (_, i) => `payer${i}`);
  const amount = 10;
  const created: string[] = [];
  const post = async (user: string, body: Record<string, unknown>) => {
    const res = await app.inject({
      method: 'POST',
      url: '/payments/payment-order/v1/payments',
      headers: userHeaders(user),
      payload: body,
    });
    assert.equal(res.statusCode, 201, res.body);
    const ref = (res.json() as Record<string, Record<string, unknown>>)[
      'paymentInstructionReference'
    ];
    return String(ref?.['identification']);
  };
  await app.inject({ method: 'GET', url: '/accounts/v1/me/balance', headers: userHeaders('bob') });
  for (let i = 0; i < options.payments; i += 1) {
    const payer = payers[i % payers.length] ?? 'payer0';
    created.push(await post(payer, transfer(payer, 'bob', amount)));
  }
  const instances = 5;
  const standingOrder = await post(
    'saver',
    transfer('saver', 'bob', 1, {
      instruction: {
        schedule: {
          startDate: '2026-01-06T08:00:00Z',
          frequency: 'DAILY',
          noOfRepetition: instances,
        },
      },
    }),
  );
  await app.close();
  return {
    db,
    configFile,
    payments: created,
    standingOrder,
    instances,
    payers,
    amount,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
      if (kind === 'postgres') await dropSchema(schema);
    },
  };
}

/** How many of the seeded payments (and instances) are COMPLETED. */
export async function completedCount(db: Database): Promise<number> {
  const rows = await db.query<{ n: number | string }>(
    "SELECT COUNT(*) AS n FROM payments WHERE status = 'COMPLETED'",
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Every seeded payment went INITIATED → PENDING → COMPLETED exactly once, the standing order produced
 * each instance exactly once (and each executed once), the ledger is balanced, and every balance is
 * exactly what the payments make it.
 */
export async function assertExecutedExactlyOnce(store: SharedStore): Promise<void> {
  const { db } = store;
  for (const id of store.payments) {
    const trail = (await statusHistory(db, id)).map((c) => `${c.from ?? '-'}>${c.to}`);
    assert.deepEqual(trail, ['->INITIATED', 'INITIATED>PENDING', 'PENDING>COMPLETED'], id);
  }
  const instances = await instancesOf(db, store.standingOrder);
  assert.deepEqual(
    instances.map((i) => [i.instance, i.status]),
    Array.from({ length: store.instances }, (_, i) => [i, 'COMPLETED']),
  );
  for (const instance of instances) {
    const trail = (await statusHistory(db, instance.id)).map((c) => c.to);
    assert.deepEqual(trail, ['INITIATED', 'PENDING', 'COMPLETED'], instance.id);
  }
  const journals = await db.query<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM ledger_journals WHERE payment_id IS NOT NULL',
  );
  assert.equal(Number(journals[0]?.n), 2 * (store.payments.length + store.instances));
  const { sums } = await trialBalance(db);
  for (const [currency, sum] of Object.entries(sums)) assert.equal(sum, 0n, currency);
  let paid = 0;
  for (const [i, payer] of store.payers.entries()) {
    const mine = store.payments.filter((_, k) => k % store.payers.length === i).length;
    paid += mine;
    const expected = BigInt((5000 - mine * store.amount) * 100);
    assert.equal(await balanceOf(db, demoIbanFor(payer)), expected, payer);
  }
  assert.equal(paid, store.payments.length);
  assert.equal(
    await balanceOf(db, demoIbanFor('bob')),
    BigInt((5000 + store.payments.length * store.amount + store.instances) * 100),
  );
}
