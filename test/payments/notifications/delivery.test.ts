// Issue 26, "Status notifications: signed webhooks (HMAC, retries with back-off, a delivery log)": the
// delivery worker against a real local receiver, driven by an injected clock (no sleeps): a verifiable
// signature, retries with exponential back-off on 500 and on timeouts, the dead letter after the maximum,
// the operator's delivery log and redelivery, receivers' event filters, and no secret in any log.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../src/shared/log/logger.js';
import { DeliveryWorker } from '../../../src/payments/notifications/delivery-worker.js';
import {
  claimDueDeliveries,
  dispatchEvents,
  recordAttempt,
} from '../../../src/payments/storage/webhook-deliveries.js';
import { LogCapture } from '../../helpers/capture.js';
import {
  forEachStore,
  holdSampleAccounts,
  json,
  openHarness,
  OPERATOR_TOKEN,
  samplePayment,
  send,
  type Harness,
} from '../harness.js';
import { startReceiver, verifySignature, type Receiver } from './receiver.js';

const SECRET = 'whsec-test-0123456789abcdefghijklmnopqrstuvwxyz';
const FILTERED_SECRET = 'whsec-cancel-only-0123456789abcdefghijklmnop';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const START = Date.parse('2026-11-25T08:00:00.000Z');

forEachStore('webhook delivery', (kind) => {
  let h: Harness;
  let receiver: Receiver;
  let cancelOnly: Receiver;
  let clock = new Date(START);
  const workerLogs = new LogCapture();

  before(async () => {
    receiver = await startReceiver();
    cancelOnly = await startReceiver('/cancelled?token=query-token-not-logged');
    h = await openHarness(kind, {
      now: () => clock,
      logLevel: 'info',
      overrides: {
        webhooks: [
          { url: receiver.url, secret: SECRET },
          { url: cancelOnly.url, secret: FILTERED_SECRET, events: ['payment.cancelled'] },
        ],
        webhookDelivery: {
          maxAttempts: 3,
          initialBackoffSeconds: 10,
          maxBackoffSeconds: 60,
          timeoutMs: 200,
        },
      },
    });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => {
    await h.close();
    await receiver.close();
    await cancelOnly.close();
  });
  beforeEach(async () => {
    // Each test starts with an empty log and its own time (an hour later than the last).
    await h.db.execute('DELETE FROM payment_webhook_attempts');
    await h.db.execute('DELETE FROM payment_webhook_deliveries');
    await h.db.execute('UPDATE payment_events SET dispatched_at = $1', ['done']);
    clock = new Date(clock.getTime() + 3600_000);
    receiver.received.length = 0;
    cancelOnly.received.length = 0;
    receiver.fallback = 200;
  });

  function worker(): DeliveryWorker {
    const { logger } = createLogger({ level: 'debug', destination: workerLogs });
    return new DeliveryWorker({
      db: h.db,
      endpoints: h.config.payments.webhooks,
      settings: h.config.payments.webhookDelivery,
      logger,
      now: () => clock,
      random: () => 0.5, // jitter at its middle: delay = 3/4 of the exponential step
    });
  }

  async function create(): Promise<string> {
    const res = await send(h, 'alice', 'POST', 'payments', samplePayment());
    assert.equal(res.statusCode, 201, res.body);
    return String(
      (json(res)['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
  }
  const operatorGet = (path: string) => send(h, undefined, 'GET', path, undefined, operator);
  async function deliveryOf(paymentId: string) {
    const res = await operatorGet(`/internal/payments/webhook-deliveries?paymentId=${paymentId}`);
    assert.equal(res.statusCode, 200, res.body);
    const items = json(res)['items'] as Record<string, unknown>[];
    assert.equal(items.length, 1);
    const one = await operatorGet(
      `/internal/payments/webhook-deliveries/${String(items[0]?.['deliveryId'])}`,
    );
    assert.equal(one.statusCode, 200, one.body);
    return json(one);
  }

  test('a status change is POSTed once, signed with HMAC-SHA256 over timestamp and body, and logged as delivered', async () => {
    const id = await create();
    const w = worker();
    const summary = await w.runOnce();
    assert.deepEqual(summary, { dispatched: 1, attempted: 1, delivered: 1, retried: 0, dead: 0 });
    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0];
    assert.ok(got);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['toolgate-event-id'], `evt_${id}_v1`);
    assert.equal(got.headers['toolgate-event-type'], 'payment.created');
    assert.ok(verifySignature(SECRET, got.headers, got.body, clock.getTime() / 1000));
    assert.ok(
      !verifySignature(
        'another-secret-of-the-same-length-0123456',
        got.headers,
        got.body,
        clock.getTime() / 1000,
      ),
    );
    assert.ok(
      !verifySignature(
        SECRET,
        got.headers,
        got.body.replace('alice', 'mallory'),
        clock.getTime() / 1000,
      ),
    );
    assert.ok(
      !verifySignature(SECRET, got.headers, got.body, clock.getTime() / 1000 + 3600),
      'stale timestamp',
    );
    assert.deepEqual(JSON.parse(got.body), {
      id: `evt_${id}_v1`,
      type: 'payment.created',
      occurredAt: new Date(clock).toISOString(),
      data: {
        paymentId: id,
        paymentVersion: 1,
        owner: 'alice',
        fromStatus: null,
        toStatus: 'INITIATED',
        isoStatus: 'ACCP',
        reasonCode: null,
      },
    });
    const delivery = await deliveryOf(id);
    assert.equal(delivery['state'], 'DELIVERED');
    assert.equal(delivery['attempts'], 1);
    assert.equal(delivery['lastStatusCode'], 200);
    assert.equal(delivery['deliveredAt'], clock.toISOString());
    assert.deepEqual(
      (delivery['log'] as Record<string, unknown>[]).map((a) => [
        a['attempt'],
        a['outcome'],
        a['statusCode'],
      ]),
      [[1, 'DELIVERED', 200]],
    );
    // Nothing left to do: a second pass sends nothing again.
    assert.deepEqual(await w.runOnce(), {
      dispatched: 0,
      attempted: 0,
      delivered: 0,
      retried: 0,
      dead: 0,
    });
    assert.equal(receiver.received.length, 1);
    assert.equal(
      cancelOnly.received.length,
      0,
      'the cancel-only receiver does not get payment.created',
    );
  });

  test('500, then a timeout, then 200: retried with exponential back-off and jitter, every attempt in the log', async () => {
    const id = await create();
    receiver.script(500, 'hang', 200);
    const w = worker();
    const t0 = clock.getTime();
    assert.equal((await w.runOnce()).retried, 1);
    // Not due yet: the first retry waits 10 s × (1/2 + 1/2 × 0.5) = 7.5 s.
    clock = new Date(t0 + 7499);
    assert.equal((await w.runOnce()).attempted, 0);
    clock = new Date(t0 + 7500);
    const second = await w.runOnce(); // the receiver never answers: the 200 ms timeout ends the attempt
    assert.equal(second.retried, 1);
    // Second retry: 20 s × 0.75 = 15 s after the second attempt.
    clock = new Date(t0 + 7500 + 15000);
    assert.equal((await w.runOnce()).delivered, 1);
    assert.equal(receiver.received.length, 3);
    assert.deepEqual(
      receiver.received.map((r) => r.headers['toolgate-event-id']),
      [`evt_${id}_v1`, `evt_${id}_v1`, `evt_${id}_v1`],
      'one stable event id across attempts',
    );
    assert.deepEqual(
      receiver.received.map((r) => r.headers['toolgate-delivery-attempt']),
      ['1', '2', '3'],
    );
    const delivery = await deliveryOf(id);
    assert.equal(delivery['state'], 'DELIVERED');
    assert.equal(delivery['attempts'], 3);
    assert.deepEqual(
      (delivery['log'] as Record<string, unknown>[]).map((a) => [
        a['attempt'],
        a['outcome'],
        a['statusCode'],
        a['error'],
        a['nextAttemptAt'],
      ]),
      [
        [1, 'RETRY', 500, 'receiver answered HTTP 500', new Date(t0 + 7500).toISOString()],
        [2, 'RETRY', null, 'timeout after 200 ms', new Date(t0 + 22500).toISOString()],
        [3, 'DELIVERED', 200, null, null],
      ],
    );
  });

  test('dead-lettered after maxAttempts; the operator redelivers it and it is delivered', async () => {
    const id = await create();
    receiver.fallback = 500;
    const w = worker();
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const s = await w.runOnce();
      outcomes.push(s.dead === 1 ? 'dead' : s.retried === 1 ? 'retry' : 'none');
      clock = new Date(clock.getTime() + 3600_000);
    }
    assert.deepEqual(outcomes, ['retry', 'retry', 'dead']);
    assert.equal((await w.runOnce()).attempted, 0, 'a dead letter is not retried');
    const dead = await operatorGet(
      `/internal/payments/webhook-deliveries?state=DEAD&paymentId=${id}`,
    );
    const items = json(dead)['items'] as Record<string, unknown>[];
    assert.equal(items.length, 1);
    const deliveryId = String(items[0]?.['deliveryId']);
    assert.equal(items[0]?.['attempts'], 3);
    assert.equal(items[0]?.['lastError'], 'receiver answered HTTP 500');
    assert.equal(items[0]?.['nextAttemptAt'], null);

    assert.equal(
      (
        await send(
          h,
          undefined,
          'POST',
          `/internal/payments/webhook-deliveries/${deliveryId}/redeliver`,
        )
      ).statusCode,
      401,
    );
    const again = await send(
      h,
      undefined,
      'POST',
      `/internal/payments/webhook-deliveries/${deliveryId}/redeliver`,
      undefined,
      operator,
    );
    assert.equal(again.statusCode, 202, again.body);
    assert.equal(json(again)['state'], 'PENDING');
    receiver.fallback = 200;
    assert.equal((await w.runOnce()).delivered, 1);
    const delivery = await deliveryOf(id);
    assert.equal(delivery['state'], 'DELIVERED');
    assert.deepEqual(
      (delivery['log'] as Record<string, unknown>[]).map((a) => a['outcome']),
      ['RETRY', 'RETRY', 'DEAD', 'DELIVERED'],
    );
  });

  test('a worker that dies mid-attempt: its lease expires, another worker delivers, the late record is refused', async () => {
    const id = await create();
    await dispatchEvents(h.db, [{ url: receiver.url }], clock, 10);
    const [stale] = await claimDueDeliveries(h.db, clock, 10, 60_000);
    assert.ok(stale, 'claimed by the worker that then dies');
    const w = worker();
    assert.equal((await w.runOnce()).attempted, 0, 'leased: nobody else sends it');
    clock = new Date(clock.getTime() + 60_000);
    assert.equal((await w.runOnce()).delivered, 1, 'lease expired: taken over');
    const late = await recordAttempt(h.db, {
      deliveryId: stale.deliveryId,
      leaseToken: stale.leaseToken,
      attempt: stale.attempt,
      startedAt: clock,
      durationMs: 1,
      outcome: 'RETRY',
      statusCode: 500,
      error: 'late',
      nextAttemptAt: clock,
      finishedAt: clock,
    });
    assert.equal(late, false);
    const delivery = await deliveryOf(id);
    assert.equal(delivery['state'], 'DELIVERED');
    assert.deepEqual(
      (delivery['log'] as Record<string, unknown>[]).map((a) => [a['attempt'], a['outcome']]),
      [[2, 'DELIVERED']],
      'the lost attempt counts (at-least-once) but only what was recorded is logged',
    );
  });

  test('a receiver gets only the event types it subscribed to (payment.cancelled)', async () => {
    const id = await create();
    assert.equal((await send(h, 'alice', 'POST', `payments/${id}/cancel`, {})).statusCode, 200);
    const w = worker();
    await w.runOnce();
    assert.equal(cancelOnly.received.length, 1);
    const got = cancelOnly.received[0];
    assert.ok(got);
    assert.equal(got.headers['toolgate-event-type'], 'payment.cancelled');
    assert.ok(verifySignature(FILTERED_SECRET, got.headers, got.body, clock.getTime() / 1000));
    // Deliveries are not ordered (sent in parallel): receivers order by data.paymentVersion.
    assert.deepEqual(receiver.received.map((r) => r.headers['toolgate-event-type']).sort(), [
      'payment.cancelled',
      'payment.created',
    ]);
  });

  test('the delivery log: operator token required, filters checked, unknown delivery 404', async () => {
    assert.equal(
      (await send(h, 'alice', 'GET', '/internal/payments/webhook-deliveries')).statusCode,
      401,
    );
    const bad = await operatorGet('/internal/payments/webhook-deliveries?state=LOST&limit=0&x=1');
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(
      (json(bad)['errors'] as Record<string, unknown>[]).map((e) => e['pointer']).sort(),
      ['/query/limit', '/query/state', '/query/x'],
    );
    const missing = await operatorGet('/internal/payments/webhook-deliveries/dlv_nope');
    assert.equal(missing.statusCode, 404);
    assert.equal(json(missing)['code'], 'DELIVERY_NOT_FOUND');
    // Pages: newest first, nextCursor until the end.
    await create();
    await create();
    await worker().runOnce();
    const first = await operatorGet('/internal/payments/webhook-deliveries?limit=1');
    assert.equal((json(first)['items'] as unknown[]).length, 1);
    const cursor = String(json(first)['nextCursor']);
    const second = await operatorGet(
      `/internal/payments/webhook-deliveries?limit=1&cursor=${cursor}`,
    );
    assert.equal((json(second)['items'] as unknown[]).length, 1);
    assert.notDeepEqual(json(second)['items'], json(first)['items']);
  });

  test('no secret in any log: signing secrets, the operator token and the URL query stay out', async () => {
    await create();
    receiver.script(500);
    await worker().runOnce();
    const text = workerLogs.text + h.logs.text;
    assert.match(workerLogs.text, /webhook delivery failed/);
    for (const secret of [SECRET, FILTERED_SECRET, OPERATOR_TOKEN, 'query-token-not-logged'])
      assert.ok(!text.includes(secret), `a log line holds ${secret.slice(0, 6)}…`);
  });
});
