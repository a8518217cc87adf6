// Execution engine benchmark (not part of `npm test`): payments executed per second. Seeds N due
// payments (book transfers from P payers to one payee, each 10.00 EUR from EUR 5,000.00), then times one
// engine run over them: each payment is claimed, checked for funds, debited (PENDING, ACSP), settled
// (COMPLETED, ACSC) with its two journals, each transition in its own transaction. SQLite always (a real
// file: WAL, synchronous=FULL); PostgreSQL too when DATABASE_URL is set, with one engine and with two
// engines racing over the same payments (row claims, FOR UPDATE SKIP LOCKED).
// Usage: npx tsc -p . && node dist/bench/engine/run.js [--payments 2000] [--payers 200] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { openPostgres } from '../../src/shared/db/postgres.js';
import { runMigrations } from '../../src/shared/db/migrations.js';
import type { Database } from '../../src/shared/db/types.js';
import { demoIbanFor } from '../../src/payments/domain/demo-account.js';
import { prepareRecord } from '../../src/payments/domain/record-conversion.js';
import { runEngine, type EngineReport } from '../../src/payments/engine/executor.js';
import { openDemoAccount } from '../../src/payments/storage/demo-accounts.js';
import { trialBalance } from '../../src/payments/storage/ledger-repo.js';
import { paymentMigrations } from '../../src/payments/storage/migrations.js';
import { insertPayment } from '../../src/payments/storage/payments-repo.js';
import { newPaymentId, newUetr } from '../../src/payments/usecases/ids.js';

const option = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const PAYMENTS = option('payments', 2000);
const PAYERS = option('payers', 200);
const json = process.argv.includes('--json');
const fees = loadConfig({ env: {} }).payments.fees;
const SEEDED_AT = new Date('2026-01-05T09:00:00Z');
const UNTIL = new Date('2026-01-06T00:00:00Z');

async function seed(db: Database): Promise<void> {
  await runMigrations(db, 'payments', paymentMigrations);
  await db.transaction(async (tx) => {
    await openDemoAccount(tx, 'payee', SEEDED_AT);
    for (let p = 0; p < PAYERS; p += 1) await openDemoAccount(tx, `payer${p}`, SEEDED_AT);
    for (let i = 0; i < PAYMENTS; i += 1) {
      const payer = `payer${i % PAYERS}`;
      const id = newPaymentId(SEEDED_AT);
      const record = prepareRecord(
        {
          payerAccountReference: { paymentInstructionAccount: { accountId: demoIbanFor(payer) } },
          payeeAccountReference: { paymentInstructionAccount: { accountId: demoIbanFor('payee') } },
          payeeReference: { involvedParty: { partyName: 'Payee' } },
          paymentInstruction: { amount: { instructedAmount: 10, instructedCurrency: 'EUR' } },
        },
        { identification: id, uetr: newUetr() },
      );
      await insertPayment(tx, {
        id,
        owner: payer,
        status: 'INITIATED',
        record,
        instructedAmount: '10.00',
        instructedCurrency: 'EUR',
        at: SEEDED_AT.toISOString(),
      });
    }
  });
}

interface Figures {
  readonly store: string;
  readonly engines: number;
  readonly payments: number;
  readonly transitions: number;
  readonly seconds: number;
  readonly paymentsPerSecond: number;
  readonly transitionsPerSecond: number;
}

async function measure(store: string, dbs: readonly Database[]): Promise<Figures> {
  const [first] = dbs;
  if (!first) throw new Error('no database');
  await seed(first);
  const started = process.hrtime.bigint();
  const reports: EngineReport[] = await Promise.all(
    dbs.map((db) =>
      runEngine({ db, fees, rates: () => Promise.resolve(undefined), batchSize: 500 }, UNTIL),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const steps = reports.flatMap((r) => r.steps);
  const completed = steps.filter((s) => s.to === 'COMPLETED').length;
  const failures = reports.flatMap((r) => r.failures);
  if (completed !== PAYMENTS || failures.length > 0)
    throw new Error(
      `${completed} of ${PAYMENTS} completed; failures: ${JSON.stringify(failures[0])}`,
    );
  const { sums } = await trialBalance(first);
  if (Object.values(sums).some((s) => s !== 0n)) throw new Error('ledger not balanced');
  return {
    store,
    engines: dbs.length,
    payments: completed,
    transitions: steps.length,
    seconds: Number(seconds.toFixed(2)),
    paymentsPerSecond: Math.round(completed / seconds),
    transitionsPerSecond: Math.round(steps.length / seconds),
  };
}

async function main(): Promise<void> {
  const figures: Figures[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-bench-engine-'));
  try {
    const sqlite = openSqlite({ path: join(dir, 'payments.db') });
    try {
      figures.push(await measure('sqlite', [sqlite]));
    } finally {
      await sqlite.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env['DATABASE_URL'];
  if (url) {
    for (const engines of [1, 2]) {
      const schema = `bench_engine_${process.pid}_${engines}`;
      const dbs: Database[] = [];
      for (let i = 0; i < engines; i += 1)
        dbs.push(
          await openPostgres({
            url,
            schema,
            poolSize: 4,
            connectTimeoutMs: 5000,
            statementTimeoutMs: 30000,
          }),
        );
      try {
        figures.push(await measure('postgres', dbs));
      } finally {
        const [first] = dbs;
        await first?.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        for (const db of dbs) await db.close();
      }
    }
  }
  if (json) {
    process.stdout.write(`${JSON.stringify({ node: process.version, figures })}\n`);
    return;
  }
  process.stdout.write(
    `Engine: ${PAYMENTS} due book transfers from ${PAYERS} payers (Node ${process.version})\n`,
  );
  for (const f of figures)
    process.stdout.write(
      `  ${f.store.padEnd(8)} engines=${f.engines}  ${f.payments} payments (${f.transitions} transitions) in ${f.seconds} s: ` +
        `${f.paymentsPerSecond} payments/s, ${f.transitionsPerSecond} transitions/s\n`,
    );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
