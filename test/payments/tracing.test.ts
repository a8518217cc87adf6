// The payment service's spans (src/payments/tracing.ts, src/shared/http/tracing.ts, src/shared/db/tracing.ts)
// through the real app on SQLite, and on PostgreSQL when DATABASE_URL is set: the incoming traceparent is
// the parent of the server span; one create-payment-order request is server → use case → database spans;
// refusals carry the app's error code; engine transitions are spans of their own; probes make none; no
// attribute carries an IBAN, amount, name, user, gateway key or idempotency key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { demoIbanFor } from '../../src/payments/domain/demo-account.js';
import {
  BASE,
  GATEWAY_SECRET,
  SAMPLE_PAYER,
  forEachStore,
  holdSampleAccounts,
  json,
  samplePayment,
  send,
} from './harness.js';
import { openEngineHarness, transfer, type EngineHarness } from './engine/helpers.js';
import {
  attributeStrings,
  parentIdOf,
  recordSpans,
  type SpanRecorder,
} from '../helpers/span-recorder.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';
const IDEMPOTENCY_KEY = 'idem-key-7f3a9c21-secret';
const USER = 'user-tracing-4711';

let recorder: SpanRecorder;
before(() => {
  recorder = recordSpans();
});
after(async () => {
  await recorder.stop();
});

const byName = (spans: readonly ReadableSpan[], name: string) =>
  spans.filter((s) => s.name === name);
const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((s) => parentIdOf(s) === parent.spanContext().spanId);

/** Every span under `root` (depth first), `root` included. */
function subtree(spans: readonly ReadableSpan[], root: ReadableSpan): ReadableSpan[] {
  return [root, ...childrenOf(spans, root).flatMap((child) => subtree(spans, child))];
}

forEachStore('payment service spans', (kind) => {
  let e: EngineHarness;
  before(async () => {
    // Tuesday 1 December 2026, 09:00 UTC.
    e = await openEngineHarness(kind, '2026-12-01T09:00:00Z');
    await holdSampleAccounts(e.h.db, USER);
  });
  after(() => e.close());

  test('one create-payment-order request: server span (parent from traceparent) → use case → database spans', async () => {
    recorder.reset();
    const res = await send(e.h, USER, 'POST', 'payments', samplePayment(), {
      traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
      'idempotent-request-key': IDEMPOTENCY_KEY,
    });
    assert.equal(res.statusCode, 201, res.body);
    const spans = recorder.spans();
    const [server, ...moreServers] = spans.filter((s) => s.kind === SpanKind.SERVER);
    assert.ok(server);
    assert.equal(moreServers.length, 0);
    assert.equal(server.name, `POST ${BASE}/payments`);
    assert.equal(server.spanContext().traceId, TRACE_ID);
    assert.equal(parentIdOf(server), PARENT_ID);
    assert.equal(server.attributes['http.route'], `${BASE}/payments`);
    assert.equal(server.attributes['http.response.status_code'], 201);

    const [useCase] = byName(spans, 'payments.createPaymentOrder');
    assert.ok(useCase);
    assert.equal(useCase.kind, SpanKind.INTERNAL);
    assert.equal(parentIdOf(useCase), server.spanContext().spanId);
    assert.equal(useCase.attributes['payments.outcome'], 'ok');
    assert.equal(useCase.attributes['payments.response.status_code'], 201);
    assert.equal(useCase.attributes['payments.payment.status'], 'INITIATED');
    assert.equal(useCase.attributes['payments.idempotency.key_present'], true);
    assert.equal(useCase.status.code, SpanStatusCode.UNSET);

    // Every span of the request is in the one trace, and under the use case except the server span.
    assert.ok(spans.every((s) => s.spanContext().traceId === TRACE_ID));
    const tree = subtree(spans, useCase);
    assert.equal(
      tree.length,
      spans.length - 1,
      'every span but the server span is under the use case',
    );
    const db = tree.filter((s) => s.kind === SpanKind.CLIENT);
    const transactions = db.filter((s) => s.name === 'transaction');
    assert.ok(transactions.length >= 1, 'the write is a transaction span');
    const system = kind === 'sqlite' ? 'sqlite' : 'postgresql';
    assert.ok(db.every((s) => s.attributes['db.system.name'] === system));
    const inserts = db.filter((s) => s.attributes['db.query.summary'] === 'INSERT payments');
    assert.equal(inserts.length, 1, db.map((s) => s.name).join(', '));
    const insert = inserts[0]!;
    assert.equal(insert.attributes['db.operation.name'], 'INSERT');
    assert.equal(insert.attributes['db.collection.name'], 'payments');
    // The payment row is written inside a transaction span that is itself under the use case.
    const insertParent = spans.find((s) => s.spanContext().spanId === parentIdOf(insert));
    assert.equal(insertParent?.name, 'transaction');
    assert.ok(
      db.some((s) => s.name === 'SELECT idempotency_keys' || s.name === 'INSERT idempotency_keys'),
    );

    // Nothing secret or personal anywhere in the trace.
    const text = attributeStrings(spans).join('\n');
    const ref = json(res)['paymentInstructionReference'] as Record<string, unknown>;
    for (const secret of [
      SAMPLE_PAYER,
      'GB29NWBK60161331926819',
      demoIbanFor(USER),
      '125.5',
      '12550',
      'Ada Lovelace',
      'Invoice 42',
      USER,
      GATEWAY_SECRET,
      IDEMPOTENCY_KEY,
      String(ref['identification']),
      String(ref['uetr']),
    ])
      assert.ok(!text.includes(secret), `${secret} must not appear in any span`);
  });

  test('the same key again is a replay; get and list answer with their own use-case spans', async () => {
    recorder.reset();
    const again = await send(e.h, USER, 'POST', 'payments', samplePayment(), {
      'idempotent-request-key': IDEMPOTENCY_KEY,
    });
    assert.equal(again.statusCode, 201);
    const id = String(
      (json(again)['paymentInstructionReference'] as Record<string, unknown>)['identification'],
    );
    assert.equal((await send(e.h, USER, 'GET', `payments/${id}`)).statusCode, 200);
    assert.equal((await send(e.h, USER, 'GET', 'payments?limit=5')).statusCode, 200);
    const spans = recorder.spans();
    const [replay] = byName(spans, 'payments.createPaymentOrder');
    assert.equal(replay?.attributes['payments.outcome'], 'replayed');
    const [get] = byName(spans, 'payments.getPaymentOrder');
    assert.equal(get?.attributes['payments.payment.status'], 'INITIATED');
    const getServer = spans.find((s) => s.spanContext().spanId === parentIdOf(get!));
    // The route template, never the payment's id.
    assert.equal(getServer?.name, `GET ${BASE}/payments/:externalReferenceNo`);
    assert.ok(!attributeStrings(spans).join('\n').includes(id));
    const [list] = byName(spans, 'payments.listPaymentOrders');
    assert.equal(list?.attributes['payments.result.count'], 1);
    assert.ok(
      childrenOf(spans, list!).some((s) => s.name === 'SELECT payments'),
      'the list query is a child of its use case',
    );
  });

  test('refusals: the use-case span carries the app error code; a 4xx leaves the server span unset', async () => {
    recorder.reset();
    assert.equal((await send(e.h, undefined, 'POST', 'payments', samplePayment())).statusCode, 401);
    assert.equal((await send(e.h, USER, 'POST', 'payments', { nonsense: true })).statusCode, 400);
    assert.equal((await send(e.h, USER, 'GET', 'payments/PO-20260101-NOPE')).statusCode, 404);
    const spans = recorder.spans();
    const codes = [
      ...byName(spans, 'payments.createPaymentOrder'),
      ...byName(spans, 'payments.getPaymentOrder'),
    ].map((s) => [
      s.name,
      s.attributes['error.type'],
      s.attributes['payments.outcome'],
      s.status.code,
    ]);
    assert.deepEqual(codes, [
      ['payments.createPaymentOrder', 'UNAUTHENTICATED', 'refused', SpanStatusCode.ERROR],
      ['payments.createPaymentOrder', 'VALIDATION_FAILED', 'refused', SpanStatusCode.ERROR],
      ['payments.getPaymentOrder', 'PAYMENT_NOT_FOUND', 'refused', SpanStatusCode.ERROR],
    ]);
    for (const server of spans.filter((s) => s.kind === SpanKind.SERVER)) {
      assert.equal(server.status.code, SpanStatusCode.UNSET);
      assert.equal(server.attributes['error.type'], undefined);
    }
    assert.ok(!attributeStrings(spans).join('\n').includes('PO-20260101-NOPE'));
  });

  test('accounts, fees and validation have their use-case spans', async () => {
    recorder.reset();
    assert.equal((await send(e.h, USER, 'GET', '/accounts/v1/me/balance')).statusCode, 200);
    assert.equal(
      (await send(e.h, USER, 'GET', '/accounts/v1/me/transactions?limit=5')).statusCode,
      200,
    );
    assert.equal(
      (await send(e.h, USER, 'POST', 'payments/validate', samplePayment())).statusCode,
      201,
    );
    const quote = await send(e.h, USER, 'POST', 'payments/fetch-fees', {
      identification: 'Q-1',
      chargeBearer: 'SHAR',
      amount: { instructedAmount: 12345.67, instructedCurrency: 'EUR' },
      payerAccountReference: {
        paymentInstructionAccount: { accountId: SAMPLE_PAYER, numberType: 'IBAN' },
      },
      payeeAccountReference: {
        paymentInstructionAccount: { accountId: 'GB29NWBK60161331926819', numberType: 'IBAN' },
      },
    });
    assert.equal(quote.statusCode, 201, quote.body);
    const names = recorder
      .spans()
      .filter((s) => s.kind === SpanKind.INTERNAL)
      .map((s) => s.name);
    assert.deepEqual(names, [
      'payments.getAccountBalance',
      'payments.getAccountTransactions',
      'payments.validatePaymentOrder',
      'payments.fetchPaymentFees',
    ]);
    const text = attributeStrings(recorder.spans()).join('\n');
    for (const secret of [SAMPLE_PAYER, '12345.67', 'Q-1', demoIbanFor(USER), USER])
      assert.ok(!text.includes(secret), `${secret} must not appear in any span`);
  });

  test('engine transitions are root spans with their kind and status change, the database work under them', async () => {
    await e.balance('bob');
    const id = await e.create('alice', transfer('alice', 'bob', 100));
    recorder.reset();
    const report = await e.run('2026-12-01T19:00:00Z');
    assert.ok(report.steps.some((s) => s.paymentId === id));
    const spans = recorder.spans();
    const transitions = byName(spans, 'payments.engine.transition');
    assert.ok(transitions.length >= 1);
    const mine = transitions.find((s) => s.attributes['payments.engine.status_to'] === 'COMPLETED');
    assert.ok(mine, JSON.stringify(transitions.map((s) => s.attributes)));
    assert.equal(parentIdOf(mine), '', 'a root span: the engine runs on its own timer');
    assert.equal(mine.attributes['payments.engine.action'], 'EXECUTE');
    assert.equal(mine.attributes['payments.engine.status_from'], 'INITIATED');
    assert.equal(mine.attributes['payments.engine.steps'], 2);
    assert.equal(mine.attributes['payments.outcome'], 'ok');
    const [tx] = childrenOf(spans, mine);
    assert.equal(tx?.name, 'transaction');
    assert.ok(childrenOf(spans, tx!).some((s) => s.name === 'UPDATE payments'));
    // The engine's polling queries outside a transition make no spans.
    assert.ok(spans.every((s) => s.name === 'payments.engine.transition' || parentIdOf(s) !== ''));
    const text = attributeStrings(spans).join('\n');
    for (const secret of [demoIbanFor('alice'), demoIbanFor('bob'), id, '100', 'alice'])
      assert.ok(!text.includes(secret), `${secret} must not appear in any span`);
  });

  test('health and readiness probes make no span (and no database span for the readiness ping)', async () => {
    recorder.reset();
    assert.equal((await e.h.app.inject({ url: '/healthz' })).statusCode, 200);
    assert.equal((await e.h.app.inject({ url: '/readyz' })).statusCode, 200);
    assert.deepEqual(recorder.spans(), []);
  });
});
