// Issue 26, go-live item 7 "FX": a stated transfer amount must equal amount × rate within the currency's
// rounding; only payable ISO 4217 currencies (not units of account or funds codes such as CLF, XDR, XAU);
// the demo ships sample rates marked as sample data, so a newcomer's cross-currency quote works. (Stale
// rates: rules/funds.test.ts.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { SAMPLE_RATES_SOURCE, withDemoWiring } from '../../src/cli/demo.js';
import { quoteFees } from '../../src/payments/domain/fees/quote.js';
import {
  forEachStore,
  holdSampleAccounts,
  json,
  openHarness,
  samplePayment,
  send,
  type Harness,
} from './harness.js';

type Json = Record<string, unknown>;
type Entry = { pointer: string; code: string; reason: string; message: string };
const errorsOf = (body: Json) => (body['errors'] ?? []) as Entry[];
const NOW = new Date('2026-11-25T08:00:00Z');
const TRANSFER = '/paymentInstruction/amount/transferAmount';

function converted(amount: Json, exchangeRate: Json): Json {
  const order = samplePayment();
  order['paymentInstruction'] = { ...(order['paymentInstruction'] as Json), amount, exchangeRate };
  return order;
}

forEachStore('FX at acceptance (issue 26, item 7)', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());
  const create = (body: Json) => send(h, 'alice', 'POST', 'payments', body);

  test('a transfer amount that is not amount × rate (rounded) is refused (AM12); a correct one is accepted', async () => {
    const eur = (transferAmount: number) => ({
      instructedAmount: 1000,
      instructedCurrency: 'EUR',
      transferAmount,
      transferCurrency: 'USD',
    });
    const wrong = await create(converted(eur(1200), { rate: 1.1625, rateType: 'AGREED' }));
    assert.equal(wrong.statusCode, 422, wrong.body);
    assert.deepEqual(
      errorsOf(json(wrong)).map((e) => [e.pointer, e.code, e.reason]),
      [[TRANSFER, 'TRANSFER_AMOUNT_MISMATCH', 'AM12']],
    );
    assert.match(errorsOf(json(wrong))[0]?.message ?? '', /EUR 1000 × 1\.1625/);
    // 1000 × 1.1625 = 1162.50 exactly.
    const right = await create(converted(eur(1162.5), { rate: 1.1625, rateType: 'AGREED' }));
    assert.equal(right.statusCode, 201, right.body);
    // 1000 × 1.16257 = 1162.57: within the rounding; 1162.58 is not.
    const rounded = await create(converted(eur(1162.57), { rate: 1.16257 }));
    assert.equal(rounded.statusCode, 201, rounded.body);
    const offByACent = await create(converted(eur(1162.58), { rate: 1.16257 }));
    assert.equal(offByACent.statusCode, 422, offByACent.body);
    // The rate's unit currency is the transfer currency: EUR 1000 ÷ 0.86 = USD 1162.79.
    const perUsd = await create(converted(eur(1162.79), { rate: 0.86, currency: 'USD' }));
    assert.equal(perUsd.statusCode, 201, perUsd.body);
  });

  test('units of account, funds codes and metals are not payable currencies (AM11)', async () => {
    for (const [code, kind] of [
      ['CLF', 'a funds code or unit of account'],
      ['XDR', 'a unit of account'],
      ['XAU', 'a precious metal'],
    ] as const) {
      const order = samplePayment();
      (order['paymentInstruction'] as Json)['amount'] = {
        instructedAmount: 10,
        instructedCurrency: code,
      };
      const res = await create(order);
      assert.equal(res.statusCode, 422, res.body);
      const [first] = errorsOf(json(res));
      assert.deepEqual(
        [first?.pointer, first?.code, first?.reason],
        ['/paymentInstruction/amount/instructedCurrency', 'CURRENCY_UNKNOWN', 'AM11'],
      );
      assert.equal(first?.message, `${code} is ${kind}, not a currency a payment can be made in`);
    }
  });
});

test('the demo ships sample rates marked as sample data: a cross-currency quote works from npm start', async () => {
  const config = loadConfig({
    env: { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-demo-rates-')) },
  });
  assert.deepEqual(config.payments.fees.rates.pairs, {}, 'no rates without the demo');
  const demo = await withDemoWiring(config);
  assert.equal(demo.payments.fees.rates.source, SAMPLE_RATES_SOURCE);
  assert.match(SAMPLE_RATES_SOURCE, /sample/);
  const quote = quoteFees(
    { amount: { instructedAmount: 100, instructedCurrency: 'EUR', transferCurrency: 'USD' } },
    { fees: demo.payments.fees, now: NOW },
  );
  const exchange = (quote.customFields?.['feeQuote'] as Json)['exchange'] as Json;
  assert.equal(exchange['source'], SAMPLE_RATES_SOURCE);
  assert.equal(quote.amount?.transferAmount, 115.71); // 100 × 1.16 less 25 bp
  // Rates the operator configured are left alone.
  const own = await withDemoWiring(
    loadConfig({
      env: { TOOLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'toolgate-demo-rates-')) },
      overrides: { payments: { fees: { rates: { pairs: { 'EUR/USD': { mid: 1.2 } } } } } },
    }),
  );
  assert.deepEqual(Object.keys(own.payments.fees.rates.pairs), ['EUR/USD']);
  assert.notEqual(own.payments.fees.rates.source, SAMPLE_RATES_SOURCE);
});
