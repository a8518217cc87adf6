// Idempotency (replay, different body, expiry, failed validation, synonym header, scope) and identity
// (shared-secret mechanism: spoofing refused, anonymous rules).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  openHarness,
  send,
  samplePayment,
  json,
  GATEWAY_SECRET,
  type Harness,
  holdSampleAccounts,
} from './harness.js';

forEachStore('idempotency', (kind) => {
  let h: Harness;
  let clock = Date.parse('2026-11-22T10:00:00Z');
  before(async () => {
    h = await openHarness(kind, {
      overrides: { idempotency: { ttlSeconds: 60 } },
      now: () => new Date(clock),
    });
    for (const user of ['ida', 'ida2', 'ida3', 'ida4', 'ida5', 'u1', 'u2'])
      await holdSampleAccounts(h.db, user);
  });
  after(async () => h.close());
  const count = async (owner: string) =>
    Number(
      (
        await h.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM payments WHERE owner = $1', [
          owner,
        ])
      )[0]?.n,
    );

  test('a retry replays the stored status and body with Idempotent-Replayed', async () => {
    const key = { 'idempotent-request-key': 'key-replay-1' };
    const first = await send(h, 'ida', 'POST', 'payments', samplePayment(), key);
    const second = await send(h, 'ida', 'POST', 'payments', samplePayment(), key);
    assert.equal(first.statusCode, 201);
    assert.equal(second.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(second), json(first));
    assert.equal(second.headers['location'], first.headers['location']);
    assert.equal(await count('ida'), 1);
  });

  test('the canonical body counts: reordered keys replay, a different body gets 422', async () => {
    const key = { 'idempotency-key': 'key-body-1' };
    const body = samplePayment();
    await send(h, 'ida2', 'POST', 'payments', body, key);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await send(h, 'ida2', 'POST', 'payments', reordered, key);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    const other = await send(
      h,
      'ida2',
      'POST',
      'payments',
      samplePayment({ customFields: { x: 1 } }),
      key,
    );
    assert.equal(other.statusCode, 422);
    assert.equal(json(other)['code'], 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await count('ida2'), 1);
  });

  test('keys are scoped per caller and path', async () => {
    const key = { 'idempotent-request-key': 'shared-key' };
    assert.equal((await send(h, 'u1', 'POST', 'payments', samplePayment(), key)).statusCode, 201);
    const other = await send(h, 'u2', 'POST', 'payments', samplePayment(), key);
    assert.equal(other.headers['idempotent-replayed'], undefined);
    assert.equal(await count('u2'), 1);
  });

  test('failed validation and business-rule refusals are not stored', async () => {
    const key = { 'idempotent-request-key': 'key-invalid' };
    const bad = await send(
      h,
      'ida3',
      'POST',
      'payments',
      samplePayment({ customFields: 'nope' }),
      key,
    );
    assert.equal(bad.statusCode, 400);
    const rule = samplePayment({
      paymentInstruction: { amount: { instructedAmount: 1.5, instructedCurrency: 'JPY' } },
    });
    assert.equal((await send(h, 'ida3', 'POST', 'payments', rule, key)).statusCode, 422);
    const good = await send(h, 'ida3', 'POST', 'payments', samplePayment(), key);
    assert.equal(good.statusCode, 201);
    assert.equal(good.headers['idempotent-replayed'], undefined);
  });

  test('keys expire after ttlSeconds and expired ones are purged', async () => {
    const key = { 'idempotent-request-key': 'key-expiry' };
    await send(h, 'ida4', 'POST', 'payments', samplePayment(), key);
    clock += 61_000;
    const again = await send(h, 'ida4', 'POST', 'payments', samplePayment(), key);
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], undefined);
    assert.equal(await count('ida4'), 2);
    clock += 61_000;
    const { IdempotencyStore } = await import('../../src/payments/storage/idempotency.js');
    const purged = await new IdempotencyStore(h.db, {
      ttlMs: 60_000,
      staleAfterMs: 1000,
      now: () => clock,
    }).purgeExpired();
    assert.ok(purged >= 1);
    const left = await h.db.query('SELECT 1 FROM idempotency_keys WHERE idem_key = $1', [
      'key-expiry',
    ]);
    assert.equal(left.length, 0);
  });

  test('update and cancel are idempotent too', async () => {
    const created = json(await send(h, 'ida5', 'POST', 'payments', samplePayment()));
    const id = String(
      (created['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
    const key = { 'idempotent-request-key': 'cancel-1' };
    const first = await send(h, 'ida5', 'POST', `payments/${id}/cancel`, {}, key);
    const second = await send(h, 'ida5', 'POST', `payments/${id}/cancel`, {}, key);
    assert.equal(json(first)['status'], 'success');
    assert.deepEqual(json(second), json(first));
    assert.equal(second.headers['idempotent-replayed'], 'true');
    const hist = await h.db.query('SELECT 1 FROM payment_history WHERE payment_id = $1', [id]);
    assert.equal(hist.length, 2);
  });
});

forEachStore('identity (shared-secret)', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind);
  });
  after(async () => h.close());

  test('identity headers without the gateway key are refused (401)', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/payments/payment-order/v1/payments',
      headers: { 'x-user-id': 'mallory' },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(json(res)['code'], 'IDENTITY_REJECTED');
    const wrong = await h.app.inject({
      method: 'GET',
      url: '/payments/payment-order/v1/payments',
      headers: { 'x-user-id': 'mallory', 'x-toolgate-gateway-key': `${GATEWAY_SECRET}x` },
    });
    assert.equal(wrong.statusCode, 401);
    const validate = await h.app.inject({
      method: 'POST',
      url: '/payments/payment-order/v1/payments/validate',
      headers: { 'x-user-id': 'mallory' },
      payload: samplePayment(),
    });
    assert.equal(validate.statusCode, 401);
  });

  test('anonymous callers may validate but not create, list, update or cancel', async () => {
    assert.equal(
      (await send(h, undefined, 'POST', 'payments/validate', samplePayment())).statusCode,
      201,
    );
    assert.equal((await send(h, undefined, 'POST', 'payments', samplePayment())).statusCode, 401);
    assert.equal((await send(h, undefined, 'GET', 'payments')).statusCode, 401);
    assert.equal(
      (await send(h, undefined, 'PUT', 'payments/PO-1', samplePayment())).statusCode,
      401,
    );
    assert.equal((await send(h, undefined, 'POST', 'payments/PO-1/cancel', {})).statusCode, 401);
    const asAnonymous = await h.app.inject({
      method: 'POST',
      url: '/payments/payment-order/v1/payments',
      headers: { 'x-user-id': 'anonymous', 'x-toolgate-gateway-key': GATEWAY_SECRET },
      payload: samplePayment(),
    });
    assert.equal(asAnonymous.statusCode, 401);
    assert.equal(json(asAnonymous)['code'], 'UNAUTHENTICATED');
  });

  test('validate fills status and reason and stores nothing', async () => {
    const before = (await h.db.query('SELECT id FROM payments')).length;
    const res = await send(h, undefined, 'POST', 'payments/validate', samplePayment());
    const ref = json(res)['paymentInstructionReference'] as Record<string, unknown>;
    // Anonymous: no payer account or funds to check, so no status (issue 26, item 1).
    assert.deepEqual([ref['status'], ref['reason']], [null, 'ACTC']);
    assert.equal((await h.db.query('SELECT id FROM payments')).length, before);
  });

  test('the OpenAPI documents are served', async () => {
    const po = await h.app.inject({
      method: 'GET',
      url: '/payments/payment-order/v1/openapi.json',
    });
    assert.equal((json(po)['info'] as Record<string, unknown>)['title'], 'Payment Order Service');
    const acc = await h.app.inject({ method: 'GET', url: '/accounts/v1/openapi.json' });
    assert.equal((json(acc)['info'] as Record<string, unknown>)['title'], 'Accounts');
  });
});
