// Issue 26, go-live item 1 "Funds in every case": funds are checked in the payer account's currency when
// the payment's differs (alice sent 900,000 USD from a 5,000 EUR account), for immediate, scheduled and
// standing orders at acceptance; an anonymous validatePayment of 1e9 does not answer as if it would be
// accepted. Also item 7: a rate older than the configured age is not used (422 naming the pair and asOf).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { demoIbanFor } from '../../../src/payments/domain/demo-account.js';
import { forEachStore, json, openHarness, samplePayment, send, type Harness } from '../harness.js';
import { NOW } from './fixtures.js';

type Json = Record<string, unknown>;
type Entry = { pointer: string; code: string; reason: string; message: string };
const errors = (body: Json) => (body['errors'] ?? []) as Entry[];
const entries = (body: Json) => errors(body).map((e) => [e.pointer, e.code, e.reason]);
const AMOUNT = '/paymentInstruction/amount/instructedAmount';
const CURRENCY = '/paymentInstruction/amount/instructedCurrency';

/** A payment from `user`'s own demo account (EUR 5,000.00) to a British IBAN. */
function fromOwn(user: string, amount: Json, instruction: Json = {}): Json {
  const order = samplePayment({
    payerAccountReference: {
      paymentInstructionAccount: { accountId: demoIbanFor(user), numberType: 'IBAN' },
    },
  });
  const base = order['paymentInstruction'] as Json;
  order['paymentInstruction'] = { ...base, amount, ...instruction };
  return order;
}

forEachStore('funds in every case (issue 26, item 1)', (kind) => {
  let h: Harness;
  before(async () => {
    // The harness's test rates: EUR/USD 1.16, no margin.
    h = await openHarness(kind, { now: () => NOW });
  });
  after(async () => h.close());

  test('alice sends USD 900,000 from her EUR 5,000 account: refused AM04 with the converted amount', async () => {
    const order = fromOwn('alice', { instructedAmount: 900000, instructedCurrency: 'USD' });
    const res = await send(h, 'alice', 'POST', 'payments', order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    // 900,000 / 1.16 = 775,862.068… → EUR 775,862.07 (rounded up: the payer pays the full amount).
    assert.match(errors(json(res))[0]?.message ?? '', /USD 900000\.00 \(EUR 775862\.07 at/);
    assert.match(errors(json(res))[0]?.message ?? '', /EUR 5000\.00/);
  });

  test('a USD payment within the EUR balance is accepted and holds its EUR cost against later payments', async () => {
    // USD 5,800.00 = EUR 5,000.00 exactly: accepted; a cent more is refused.
    const over = fromOwn('ben', { instructedAmount: 5800.01, instructedCurrency: 'USD' });
    const refused = await send(h, 'ben', 'POST', 'payments', over);
    assert.deepEqual(entries(json(refused)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    const exact = fromOwn('ben', { instructedAmount: 5800, instructedCurrency: 'USD' });
    const accepted = await send(h, 'ben', 'POST', 'payments', exact);
    assert.equal(accepted.statusCode, 201, accepted.body);
    // The pending USD payment holds its EUR cost: the same funds cannot pay a second time.
    const again = fromOwn('ben', { instructedAmount: 1, instructedCurrency: 'GBP' });
    const spent = await send(h, 'ben', 'POST', 'payments', again);
    assert.deepEqual(entries(json(spent)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    assert.match(errors(json(spent))[0]?.message ?? '', /available balance of EUR 0\.00/);
    const inEur = fromOwn('ben', { instructedAmount: 0.01, instructedCurrency: 'EUR' });
    assert.deepEqual(entries(json(await send(h, 'ben', 'POST', 'payments', inEur))), [
      [AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04'],
    ]);
  });

  test('a scheduled payment and a standing order beyond the balance are refused at acceptance', async () => {
    const later = fromOwn(
      'carla',
      { instructedAmount: 5000.01, instructedCurrency: 'EUR' },
      { paymentDates: { requestedExecutionDate: '2026-12-01T09:00:00Z' } },
    );
    const scheduled = await send(h, 'carla', 'POST', 'payments', later);
    assert.equal(scheduled.statusCode, 422, scheduled.body);
    assert.deepEqual(entries(json(scheduled)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    const standing = fromOwn(
      'carla',
      { instructedAmount: 6000, instructedCurrency: 'USD' },
      {
        schedule: { startDate: '2026-12-01T00:00:00Z', frequency: 'MONTHLY', noOfRepetition: 12 },
      },
    );
    const monthly = await send(h, 'carla', 'POST', 'payments', standing);
    assert.equal(monthly.statusCode, 422, monthly.body);
    assert.deepEqual(entries(json(monthly)), [[AMOUNT, 'INSUFFICIENT_FUNDS', 'AM04']]);
    const affordable = fromOwn(
      'carla',
      { instructedAmount: 100, instructedCurrency: 'EUR' },
      {
        schedule: { startDate: '2026-12-01T00:00:00Z', frequency: 'MONTHLY', noOfRepetition: 12 },
      },
    );
    assert.equal((await send(h, 'carla', 'POST', 'payments', affordable)).statusCode, 201);
  });

  test('a currency without a rate cannot have its funds checked: refused (CURR), not waved through', async () => {
    const order = fromOwn('dan', { instructedAmount: 10, instructedCurrency: 'NOK' });
    const res = await send(h, 'dan', 'POST', 'payments', order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[CURRENCY, 'EXCHANGE_RATE_UNAVAILABLE', 'CURR']]);
    assert.match(errors(json(res))[0]?.message ?? '', /EUR\/NOK/);
  });

  test('anonymous validatePayment of 1e9 is not answered as accepted; a signed-in one is FAILED AM04', async () => {
    const huge = fromOwn('erin', { instructedAmount: 1e9, instructedCurrency: 'EUR' });
    const anonymous = await send(h, undefined, 'POST', 'payments/validate', huge);
    assert.equal(anonymous.statusCode, 201, anonymous.body);
    const anon = json(anonymous)['paymentInstructionReference'] as Json;
    assert.notEqual(anon['status'], 'INITIATED');
    assert.deepEqual([anon['status'], anon['reason']], [null, 'ACTC']);
    const own = await send(h, 'erin', 'POST', 'payments/validate', huge);
    const ref = json(own)['paymentInstructionReference'] as Json;
    assert.deepEqual([ref['status'], ref['reason']], ['FAILED', 'AM04']);
  });
});

forEachStore('stale exchange rates (issue 26, item 7)', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, {
      now: () => NOW,
      overrides: {
        duplicates: { windowSeconds: 0 },
        fees: {
          rates: {
            maxAgeSeconds: 3600,
            pairs: {
              'EUR/USD': { mid: 1.16, asOf: '2026-11-24T16:00:00Z' },
              'EUR/GBP': { mid: 0.88, asOf: '2026-11-25T07:30:00Z' },
            },
          },
        },
      },
    });
  });
  after(async () => h.close());

  test('a payment converted at a rate older than maxAgeSeconds is refused naming the pair and its asOf', async () => {
    const order = fromOwn('fay', { instructedAmount: 10, instructedCurrency: 'USD' });
    const res = await send(h, 'fay', 'POST', 'payments', order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[CURRENCY, 'EXCHANGE_RATE_STALE', 'CURR']]);
    assert.match(
      errors(json(res))[0]?.message ?? '',
      /EUR\/USD rate fixed at 2026-11-24T16:00:00Z/,
    );
    // 30 minutes old: used.
    const fresh = fromOwn('fay', { instructedAmount: 10, instructedCurrency: 'GBP' });
    assert.equal((await send(h, 'fay', 'POST', 'payments', fresh)).statusCode, 201);
  });

  test('a fee quote does not convert at a stale rate (422 EXCHANGE_RATE_STALE)', async () => {
    const res = await send(h, undefined, 'POST', 'payments/fetch-fees', {
      amount: { instructedAmount: 100, instructedCurrency: 'EUR', transferCurrency: 'USD' },
    });
    assert.equal(res.statusCode, 422, res.body);
    const [problem] = errors(json(res));
    assert.deepEqual(
      [problem?.pointer, problem?.code],
      ['/amount/transferCurrency', 'EXCHANGE_RATE_STALE'],
    );
    assert.match(problem?.message ?? '', /EUR\/USD .*2026-11-24T16:00:00Z/);
  });
});
