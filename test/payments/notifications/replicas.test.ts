// Issue 26, "Status notifications" with the execution engine's "exactly once across replicas": two
// delivery workers with their own connections to ONE PostgreSQL schema drain the same outbox
// concurrently: every event reaches the receiver exactly once, never two deliveries of one event at a
// time. (SQLite has a single writer: BEGIN IMMEDIATE serialises the claims of processes sharing a file;
// two connections inside one test process would only block each other's event loop.)
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../src/shared/log/logger.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import type { Database } from '../../../src/shared/db/types.js';
import { paymentMigrations } from '../../../src/payments/storage/migrations.js';
import { insertPayment } from '../../../src/payments/storage/payments-repo.js';
import { DeliveryWorker } from '../../../src/payments/notifications/delivery-worker.js';
import type { PaymentOrder } from '../../../src/payments/domain/payment-order.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';
import { LogCapture } from '../../helpers/capture.js';
import { samplePayment } from '../harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const EVENTS = 40;
const SECRET = 'whsec-replicas-0123456789abcdefghijklmnopqrstu';

describe('webhook delivery across replicas [postgres]', { skip: skipWithoutPostgres }, () => {
  const schema = uniqueName('payments_webhooks');
  const dbs: Database[] = [];
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    for (let i = 0; i < 2; i++) {
      const db = await openPostgres({
        url: DATABASE_URL ?? '',
        schema,
        poolSize: 5,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 15000,
      });
      await runMigrations(db, 'payments', paymentMigrations);
      dbs.push(db);
    }
  });
  after(async () => {
    for (const db of dbs) await db.close();
    await receiver.close();
    await dropSchema(schema);
  });

  test(`two workers deliver ${EVENTS} events exactly once each, never one event twice at a time`, async () => {
    const [first] = dbs;
    assert.ok(first);
    const at = new Date('2026-11-25T08:00:00.000Z');
    for (let i = 0; i < EVENTS; i++) {
      await first.transaction((tx) =>
        insertPayment(tx, {
          id: `PO-20261125-REPLICA${String(i).padStart(5, '0')}`,
          owner: 'alice',
          status: 'INITIATED',
          record: samplePayment() as PaymentOrder,
          instructedAmount: '125.50',
          instructedCurrency: 'EUR',
          at: at.toISOString(),
        }),
      );
    }
    const workers = dbs.map(
      (db) =>
        new DeliveryWorker({
          db,
          endpoints: [{ url: receiver.url, secret: SECRET }],
          settings: {
            pollIntervalMs: 50,
            batchSize: 3,
            timeoutMs: 5000,
            maxResponseBytes: 1024,
            maxAttempts: 5,
            initialBackoffSeconds: 10,
            maxBackoffSeconds: 60,
          },
          logger: createLogger({ level: 'warn', destination: new LogCapture() }).logger,
          now: () => at,
        }),
    );
    const attemptedBy = [0, 0];
    await Promise.all(
      workers.map(async (w, i) => {
        // Each drains until a pass finds nothing left to dispatch or send.
        for (;;) {
          const s = await w.runOnce();
          attemptedBy[i] = (attemptedBy[i] ?? 0) + s.attempted;
          if (s.dispatched === 0 && s.attempted === 0) {
            const left = await first.query<{ n: number | string }>(
              `SELECT COUNT(*) AS n FROM payment_events WHERE dispatched_at IS NULL`,
            );
            const pending = await first.query<{ n: number | string }>(
              `SELECT COUNT(*) AS n FROM payment_webhook_deliveries WHERE state = 'PENDING'`,
            );
            if (Number(left[0]?.n) === 0 && Number(pending[0]?.n) === 0) return;
          }
        }
      }),
    );
    const ids = receiver.received.map((r) => String(r.headers['toolgate-event-id']));
    assert.equal(ids.length, EVENTS, 'one request per event');
    assert.equal(new Set(ids).size, EVENTS, 'no event delivered twice');
    assert.equal(receiver.maxConcurrentPerEvent, 1);
    const rows = await first.query<{ state: string; attempts: number | string }>(
      'SELECT state, attempts FROM payment_webhook_deliveries',
    );
    assert.equal(rows.length, EVENTS);
    assert.ok(rows.every((r) => r.state === 'DELIVERED' && Number(r.attempts) === 1));
    assert.equal((attemptedBy[0] ?? 0) + (attemptedBy[1] ?? 0), EVENTS);
    // Both took part (SKIP LOCKED lets the second claim other rows while the first holds its own).
    assert.ok(
      attemptedBy.every((n) => n > 0),
      `attempts per worker: ${attemptedBy.join(', ')}`,
    );
  });
});
