// Issue 26, go-live item 8: the same order (payer, payee, amount, date, reference) twice within the
// configured window without an idempotency key gets 409 POSSIBLE_DUPLICATE unless confirmed (header
// Confirm-Duplicate: true); an execution date on a weekend or rail holiday is rolled per the rail's
// convention (following business day by default) and the response says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  holdSampleAccounts,
  json,
  openHarness,
  samplePayment,
  send,
  type Harness,
} from '../harness.js';
import { fedwireTransfer, sepaCreditTransfer } from '../rules/fixtures.js';

type Json = Record<string, unknown>;
// Wednesday 2026-11-25 08:00 UTC; the clock moves when a test says so.
let now = new Date('2026-11-25T08:00:00Z');
const refOf = (body: Json) => body['paymentInstructionReference'] as Json;
const datesOf = (body: Json) => (body['paymentInstruction'] as Json)['paymentDates'] as Json;
const adjustmentOf = (body: Json) =>
  (body['customFields'] as Json | undefined)?.['executionDateAdjustment'] as Json | undefined;

forEachStore('possible duplicates (issue 26, item 8)', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, {
      now: () => now,
      overrides: { duplicates: { windowSeconds: 600 } },
    });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  test('the same order again within the window is 409 POSSIBLE_DUPLICATE naming the first; confirmed it is created', async () => {
    const first = await send(h, 'alice', 'POST', 'payments', samplePayment());
    assert.equal(first.statusCode, 201, first.body);
    const firstId = refOf(json(first))['identification'];
    const again = await send(h, 'alice', 'POST', 'payments', samplePayment());
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.deepEqual(
      [json(again)['code'], json(again)['duplicateOf']],
      ['POSSIBLE_DUPLICATE', firstId],
    );
    assert.match(String(json(again)['detail']), /Confirm-Duplicate: true/);
    const confirmed = await send(h, 'alice', 'POST', 'payments', samplePayment(), {
      'confirm-duplicate': 'true',
    });
    assert.equal(confirmed.statusCode, 201, confirmed.body);
    const list = json(await send(h, 'alice', 'GET', 'payments'));
    assert.equal((list['items'] as unknown[]).length, 2, 'the refused one was not stored');
  });

  test('another amount or reference, an idempotency key, or the window passed: no duplicate', async () => {
    const order = (amount: number, content = 'Rent') =>
      samplePayment({
        paymentProcessingConfiguration: { remittanceInfo: { type: 'UNSTRUCTURED', content } },
        paymentInstruction: {
          amount: { instructedAmount: amount, instructedCurrency: 'EUR' },
          chargeBearer: 'SHAR',
        },
      });
    assert.equal((await send(h, 'alice', 'POST', 'payments', order(10))).statusCode, 201);
    assert.equal((await send(h, 'alice', 'POST', 'payments', order(11))).statusCode, 201);
    assert.equal((await send(h, 'alice', 'POST', 'payments', order(10, 'Rent 2'))).statusCode, 201);
    const keyed = await send(h, 'alice', 'POST', 'payments', order(10), {
      'idempotency-key': 'dup-test-1',
    });
    assert.equal(keyed.statusCode, 201, keyed.body);
    assert.equal((await send(h, 'alice', 'POST', 'payments', order(10))).statusCode, 409);
    now = new Date(now.getTime() + 601_000);
    assert.equal((await send(h, 'alice', 'POST', 'payments', order(10))).statusCode, 201);
  });

  test('the same order for a Saturday again is a duplicate although the first was stored rolled to the Monday', async () => {
    // The stored order carries the rolled date (item 8's business days); the repeat, as the client sends
    // it, names the Saturday: it is still the same order (payer, payee, amount, date, reference).
    const saturday = () =>
      sepaCreditTransfer({
        instruction: {
          amount: { instructedAmount: 12.34, instructedCurrency: 'EUR' },
          paymentDates: { requestedExecutionDate: '2026-12-05T09:00:00Z' },
        },
      });
    const first = await send(h, 'alice', 'POST', 'payments', saturday());
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(datesOf(json(first))['requestedExecutionDate'], '2026-12-07T09:00:00.000Z');
    const again = await send(h, 'alice', 'POST', 'payments', saturday());
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(json(again)['duplicateOf'], refOf(json(first))['identification']);
  });

  test('a remittance text differing only in letter case or spacing is the same reference', async () => {
    const order = (content: string) =>
      samplePayment({
        paymentProcessingConfiguration: { remittanceInfo: { type: 'UNSTRUCTURED', content } },
        paymentInstruction: {
          amount: { instructedAmount: 77, instructedCurrency: 'EUR' },
          chargeBearer: 'SHAR',
        },
      });
    const first = await send(h, 'alice', 'POST', 'payments', order('Invoice 4711 May'));
    assert.equal(first.statusCode, 201, first.body);
    const again = await send(h, 'alice', 'POST', 'payments', order('invoice  4711 MAY'));
    assert.equal(again.statusCode, 409, again.body);
  });
});

forEachStore('business days of the rail (issue 26, item 8)', (kind) => {
  let h: Harness;
  let preceding: Harness;
  before(async () => {
    now = new Date('2026-11-25T08:00:00Z');
    h = await openHarness(kind, { now: () => now });
    preceding = await openHarness(kind, {
      now: () => now,
      overrides: { fees: { rails: { SEPA: { businessDayConvention: 'PRECEDING' } } } },
    });
    await holdSampleAccounts(h.db, 'alice');
    await holdSampleAccounts(preceding.db, 'alice');
  });
  after(async () => {
    await h.close();
    await preceding.close();
  });
  const on = (requestedExecutionDate: string, mechanism?: string) =>
    sepaCreditTransfer({
      ...(mechanism !== undefined ? { mechanism } : {}),
      instruction: { paymentDates: { requestedExecutionDate } },
    });

  test('a SEPA payment requested for a Saturday executes the following Monday, and the response says so', async () => {
    const res = await send(h, 'alice', 'POST', 'payments', on('2026-11-28T09:00:00Z'));
    assert.equal(res.statusCode, 201, res.body);
    const body = json(res);
    assert.equal(datesOf(body)['requestedExecutionDate'], '2026-11-30T09:00:00.000Z');
    assert.deepEqual(adjustmentOf(body), {
      requested: '2026-11-28T09:00:00Z',
      executionDate: '2026-11-30T09:00:00.000Z',
      rail: 'SEPA',
      convention: 'FOLLOWING',
      reason: 'WEEKEND',
    });
    assert.equal(refOf(body)['status'], 'SCHEDULED');
    const got = json(
      await send(h, 'alice', 'GET', `payments/${String(refOf(body)['identification'])}`),
    );
    assert.deepEqual(adjustmentOf(got), adjustmentOf(body), 'kept with the payment');
    // Sent back as it was read, the record keeps the adjustment; moved to a Tuesday, it drops it.
    const id = String(refOf(body)['identification']);
    const same = await send(h, 'alice', 'PUT', `payments/${id}`, got);
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual(adjustmentOf(json(same)), adjustmentOf(body));
    const tuesday = structuredClone(got);
    datesOf(tuesday)['requestedExecutionDate'] = '2026-12-01T09:00:30Z';
    const moved = json(await send(h, 'alice', 'PUT', `payments/${id}`, tuesday));
    assert.equal(adjustmentOf(moved), undefined);
    assert.equal(datesOf(moved)['requestedExecutionDate'], '2026-12-01T09:00:30Z');
    // Seconds survive a roll.
    const seconds = json(await send(h, 'alice', 'POST', 'payments', on('2026-11-29T09:00:30Z')));
    assert.equal(adjustmentOf(seconds)?.['executionDate'], '2026-11-30T09:00:30.000Z');
  });

  test('TARGET Christmas and Fedwire Thanksgiving roll to the next business day (HOLIDAY)', async () => {
    const christmas = json(await send(h, 'alice', 'POST', 'payments', on('2026-12-25T10:00:00Z')));
    assert.deepEqual(
      [adjustmentOf(christmas)?.['executionDate'], adjustmentOf(christmas)?.['reason']],
      ['2026-12-28T10:00:00.000Z', 'HOLIDAY'],
    );
    const wire = fedwireTransfer();
    (wire['paymentInstruction'] as Json)['paymentDates'] = {
      requestedExecutionDate: '2026-11-26T15:00:00Z',
    };
    const thanksgiving = await send(h, 'alice', 'POST', 'payments', wire);
    assert.equal(thanksgiving.statusCode, 201, thanksgiving.body);
    assert.deepEqual(
      [
        adjustmentOf(json(thanksgiving))?.['executionDate'],
        adjustmentOf(json(thanksgiving))?.['rail'],
      ],
      ['2026-11-27T15:00:00.000Z', 'FEDWIRE'],
    );
  });

  test('a business day and an instant payment on a Saturday are not rolled', async () => {
    const monday = json(await send(h, 'alice', 'POST', 'payments', on('2026-11-30T09:00:00Z')));
    assert.equal(adjustmentOf(monday), undefined);
    assert.equal(datesOf(monday)['requestedExecutionDate'], '2026-11-30T09:00:00Z');
    const instant = json(
      await send(h, 'alice', 'POST', 'payments', on('2026-11-28T09:00:00Z', 'SCT_INST')),
    );
    assert.equal(adjustmentOf(instant), undefined);
  });

  test("the rail's convention is configurable: PRECEDING moves a Saturday to the Friday", async () => {
    const res = await send(preceding, 'alice', 'POST', 'payments', on('2026-11-28T09:00:00Z'));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      [adjustmentOf(json(res))?.['executionDate'], adjustmentOf(json(res))?.['convention']],
      ['2026-11-27T09:00:00.000Z', 'PRECEDING'],
    );
  });
});
