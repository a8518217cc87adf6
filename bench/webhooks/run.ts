// Webhook delivery benchmark (not part of `npm test`): EVENTS status-change events in the outbox, drained by
// one delivery worker (and, on PostgreSQL, by two workers with their own pools, as two replicas would) to a
// local receiver answering 200 at once; prints events delivered per second and checks every event arrived
// exactly once. SQLite always (a real file: WAL, synchronous=FULL); PostgreSQL too when DATABASE_URL is set.
// Usage: npx tsc -p . && node dist/bench/webhooks/run.js [--events N] [--batch N]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { openPostgres } from '../../src/shared/db/postgres.js';
import { runMigrations } from '../../src/shared/db/migrations.js';
import type { Database } from '../../src/shared/db/types.js';
import { createLogger } from '../../src/shared/log/logger.js';
import { paymentMigrations } from '../../src/payments/storage/migrations.js';
import { insertPayment } from '../../src/payments/storage/payments-repo.js';
import type { PaymentOrder } from '../../src/payments/domain/payment-order.js';
import { DeliveryWorker } from '../../src/payments/notifications/delivery-worker.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const EVENTS = arg('--events', 2000);
const BATCH = arg('--batch', 50);
const SECRET = randomBytes(32).toString('hex');

async function receiver(): Promise<{ url: string; ids: string[]; close(): Promise<void> }> {
  const ids: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['toolgate-event-id']));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    ids,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function fill(db: Database): Promise<void> {
  const record = {
    paymentInstruction: { amount: { instructedAmount: 1, instructedCurrency: 'EUR' } },
  };
  const at = new Date().toISOString();
  for (let i = 0; i < EVENTS; i++) {
    await db.transaction((tx) =>
      insertPayment(tx, {
        id: `PO-BENCH-${String(i).padStart(8, '0')}`,
        owner: 'bench',
        status: 'INITIATED',
        record: record as PaymentOrder,
        instructedAmount: '1.00',
        instructedCurrency: 'EUR',
        at,
      }),
    );
  }
}

async function drain(dbs: readonly Database[], url: string): Promise<number> {
  const { logger } = createLogger({ level: 'warn' });
  const workers = dbs.map(
    (db) =>
      new DeliveryWorker({
        db,
        endpoints: [{ url, secret: SECRET }],
        settings: {
          pollIntervalMs: 50,
          batchSize: BATCH,
          timeoutMs: 5000,
          maxResponseBytes: 1024,
          maxAttempts: 5,
          initialBackoffSeconds: 1,
          maxBackoffSeconds: 60,
        },
        logger,
      }),
  );
  const started = performance.now();
  await Promise.all(
    workers.map(async (w) => {
      for (let idle = 0; idle < 3;) {
        const s = await w.runOnce();
        idle = s.dispatched === 0 && s.attempted === 0 ? idle + 1 : 0;
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

async function run(name: string, open: () => Promise<Database>, workers: number): Promise<void> {
  const dbs: Database[] = [];
  for (let i = 0; i < workers; i++) {
    const db = await open();
    await runMigrations(db, 'payments', paymentMigrations);
    dbs.push(db);
  }
  const first = dbs[0];
  if (!first) return;
  const r = await receiver();
  try {
    await fill(first);
    const seconds = await drain(dbs, r.url);
    const unique = new Set(r.ids).size;
    console.log(
      JSON.stringify({
        store: name,
        workers,
        events: EVENTS,
        batch: BATCH,
        seconds: Number(seconds.toFixed(2)),
        eventsPerSecond: Math.round(EVENTS / seconds),
        received: r.ids.length,
        unique,
        exactlyOnce: unique === EVENTS && r.ids.length === EVENTS,
      }),
    );
  } finally {
    await r.close();
    for (const db of dbs) await db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'toolgate-bench-webhooks-'));
try {
  await run('sqlite', async () => openSqlite({ path: join(dir, 'payments.db') }), 1);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const url = process.env.DATABASE_URL;
if (url) {
  for (const workers of [1, 2]) {
    const schema = `bench_webhooks_${process.pid}_${workers}`;
    try {
      await run(
        'postgres',
        () =>
          openPostgres({
            url,
            schema,
            poolSize: 10,
            connectTimeoutMs: 5000,
            statementTimeoutMs: 30000,
          }),
        workers,
      );
    } finally {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  }
}
