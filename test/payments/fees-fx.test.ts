import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { convert, type RateTable } from '../../src/payments/domain/fees/fx.js';
import { quoteFees } from '../../src/payments/domain/fees/quote.js';
import { PaymentError } from '../../src/payments/domain/errors.js';
import { RateSource } from '../../src/payments/usecases/rates.js';

const table: RateTable = {
  source: 'test desk',
  asOf: '2026-11-20T16:00:00Z',
  marginBasisPoints: 0,
  pairs: {
    'EUR/USD': { mid: 1.16, marginBasisPoints: 25 },
    'EUR/JPY': { mid: 180.5 },
    'USD/BHD': { mid: 0.376 },
  },
};

test('conversion: mid less the margin, exact minor units of the target currency', () => {
  const eurUsd = convert(table, 'EUR', 'USD', 100000n, 2, 2);
  assert.deepEqual(eurUsd, {
    pair: 'EUR/USD',
    inverted: false,
    from: 'EUR',
    to: 'USD',
    midRate: 1.16,
    marginBasisPoints: 25,
    rate: 1.1571,
    asOf: '2026-11-20T16:00:00Z',
    source: 'test desk',
    convertedMinor: 115710n,
    atMidMinor: 116000n,
    marginMinor: 290n,
  });
  // Reverse direction derived as 1 / mid; the pair's margin applies too.
  const usdEur = convert(table, 'USD', 'EUR', 100000n, 2, 2);
  assert.equal(usdEur?.pair, 'EUR/USD');
  assert.equal(usdEur?.inverted, true);
  assert.equal(usdEur?.midRate, 0.8620689655);
  assert.equal(usdEur?.atMidMinor, 86207n);
  assert.equal(usdEur?.convertedMinor, 85991n);
  // JPY has no decimals: 10.01 EUR × 180.5 = 1806.805 → 1807 (half up).
  assert.equal(convert(table, 'EUR', 'JPY', 1001n, 2, 0)?.convertedMinor, 1807n);
  // BHD has three: 100.01 USD × 0.376 = 37.60376 → 37.604.
  assert.equal(convert(table, 'USD', 'BHD', 10001n, 2, 3)?.convertedMinor, 37604n);
  assert.equal(convert(table, 'GBP', 'USD', 100n, 2, 2), undefined);
});

const fees = loadConfig({
  env: {},
  overrides: {
    payments: {
      fees: {
        rates: {
          source: 'treasury',
          asOf: '2026-11-20T16:00:00Z',
          marginBasisPoints: 50,
          pairs: { 'EUR/USD': { mid: 1.16 } },
        },
      },
    },
  },
}).payments.fees;

const now = new Date('2026-11-18T12:00:00Z');

test('a quote in another transfer currency converts with the configured rate and shows it', () => {
  const quote = quoteFees(
    { amount: { instructedAmount: 1000, instructedCurrency: 'EUR', transferCurrency: 'USD' } },
    { fees, now, mechanismHeader: 'FEDWIRE' },
  );
  assert.deepEqual(quote['amount'], {
    instructedAmount: 1000,
    instructedCurrency: 'EUR',
    transferCurrency: 'USD',
    transferAmount: 1154.2,
  });
  const summary = (quote['customFields'] as Record<string, Record<string, unknown>>)['feeQuote'];
  assert.deepEqual(summary?.['exchange'], {
    from: 'EUR',
    to: 'USD',
    pair: 'EUR/USD',
    inverted: false,
    midRate: 1.16,
    marginBasisPoints: 50,
    rate: 1.1542,
    convertedAmount: 1154.2,
    amountAtMid: 1160,
    marginAmount: 5.8,
    source: 'treasury',
    asOf: '2026-11-20T16:00:00Z',
  });
  // Fees stay in the instructed currency; the dates follow the rail of the transfer currency.
  assert.deepEqual(quote['appliedFee'], [
    { amount: 15, currency: 'EUR', type: 'DEBTOR_TRANSFER_FEE' },
  ]);
  assert.equal(summary?.['rail'], 'FEDWIRE');
});

test('a missing pair is a 422 naming the pair, not a demand for /exchangeRate/rate', () => {
  assert.throws(
    () =>
      quoteFees(
        { amount: { instructedAmount: 1000, instructedCurrency: 'GBP', transferCurrency: 'JPY' } },
        { fees, now },
      ),
    (err: unknown) => {
      assert.ok(err instanceof PaymentError);
      assert.equal(err.status, 422);
      assert.deepEqual(err.errors, [
        {
          pointer: '/amount/transferCurrency',
          code: 'EXCHANGE_RATE_UNAVAILABLE',
          message: 'no exchange rate for GBP/JPY (nor JPY/GBP) in the rate source "treasury"',
        },
      ]);
      return true;
    },
  );
});

test('the rate file is re-read when it changes; a broken file keeps the last good rates', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-rates-'));
  try {
    const file = join(dir, 'rates.yaml');
    writeFileSync(file, "asOf: '2026-11-20T16:00:00Z'\npairs:\n  'EUR/USD': { mid: 1.16 }\n");
    utimesSync(file, new Date('2026-11-20T16:00:00Z'), new Date('2026-11-20T16:00:00Z'));
    const errors: unknown[] = [];
    const source = new RateSource(
      {
        source: 'configuration',
        marginBasisPoints: 10,
        pairs: { 'EUR/USD': { mid: 1.1 }, 'EUR/GBP': { mid: 0.88 } },
        file,
      },
      (err) => errors.push(err),
    );
    const first = await source.current();
    assert.deepEqual(first.pairs['EUR/USD'], {
      mid: 1.16,
      source: 'file:rates.yaml',
      asOf: '2026-11-20T16:00:00Z',
    });
    assert.deepEqual(first.pairs['EUR/GBP'], { mid: 0.88 });
    assert.equal(first.marginBasisPoints, 10);

    writeFileSync(
      file,
      JSON.stringify({
        source: 'ECB',
        pairs: { 'EUR/USD': { mid: 1.17, asOf: '2026-11-23T16:00:00Z' } },
      }),
    );
    utimesSync(file, new Date('2026-11-23T16:00:00Z'), new Date('2026-11-23T16:00:00Z'));
    assert.deepEqual((await source.current()).pairs['EUR/USD'], {
      mid: 1.17,
      asOf: '2026-11-23T16:00:00Z',
      source: 'ECB',
    });

    writeFileSync(file, 'pairs: { EURUSD: { mid: -1 } }\n');
    utimesSync(file, new Date('2026-11-24T16:00:00Z'), new Date('2026-11-24T16:00:00Z'));
    assert.equal((await source.current()).pairs['EUR/USD']?.mid, 1.17);
    assert.equal(errors.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
