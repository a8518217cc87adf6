// Issue 25, "Policies": "for payment tools, the amount converted to a configured base currency"; money
// budgets are "counted in the base currency at the configured rates". Conversion is exact in integers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { convertMoney, formatMinor } from '../../../src/gateway/governance/money.js';
import { loadConfig } from '../../../src/config/load.js';

const settings = {
  baseCurrency: 'EUR',
  rates: { USD: '0.86', GBP: 1.17, CHF: '1.0725', JPY: '0.0057', BHD: '2.28' },
};

describe('convertMoney (issue 25: amounts converted to the base currency)', () => {
  it('keeps an amount in the base currency as it is, in minor units', () => {
    assert.deepEqual(convertMoney('1500.00', 'EUR', settings), {
      amount: '1500.00',
      currency: 'EUR',
      baseCurrency: 'EUR',
      baseMinor: 150000,
    });
    assert.equal(result(convertMoney('0.01', 'EUR', settings)).baseMinor, 1);
    assert.equal(result(convertMoney('7', 'EUR', settings)).baseMinor, 700);
  });

  it('converts at the configured rate, exactly (no binary floating point)', () => {
    // 0.1 × 3 in floats is 0.30000000000000004; here 1000.10 USD × 0.86 = 860.086 → 860.09 EUR.
    assert.equal(result(convertMoney('1000.10', 'USD', settings)).baseMinor, 86009);
    assert.equal(result(convertMoney('100', 'GBP', settings)).baseMinor, 11700);
    assert.equal(result(convertMoney('0.01', 'CHF', settings)).baseMinor, 1, '0.010725 → 0.01');
    assert.equal(result(convertMoney('1000', 'JPY', settings)).baseMinor, 570);
    assert.equal(result(convertMoney('1.005', 'BHD', settings)).baseMinor, 229, '2.2914 → 2.29');
  });

  it('rounds half up to the base currency minor unit', () => {
    const half = { baseCurrency: 'EUR', rates: { USD: '0.5' } };
    assert.equal(result(convertMoney('0.01', 'USD', half)).baseMinor, 1, '0.005 → 0.01');
    assert.equal(result(convertMoney('0.03', 'USD', half)).baseMinor, 2, '0.015 → 0.02');
    const jpyBase = { baseCurrency: 'JPY', rates: { EUR: '175.5' } };
    assert.equal(result(convertMoney('0.01', 'EUR', jpyBase)).baseMinor, 2, '1.755 → 2');
  });

  it('reads a rate given as a number from its shortest decimal text, exponents included', () => {
    assert.equal(
      result(convertMoney('10000000', 'USD', { ...settings, rates: { USD: 1e-7 } })).baseMinor,
      100,
    );
  });

  it('names the unknown currency, the missing rate and the bad amount', () => {
    assert.match(
      error(convertMoney('10', 'XYZ', settings)),
      /"XYZ" is not an ISO 4217 currency code/,
    );
    assert.match(error(convertMoney('10', 'SEK', settings)), /no exchange rate for SEK to EUR/);
    assert.match(
      error(convertMoney('-5', 'EUR', settings)),
      /amount "-5" is not a non-negative decimal/,
    );
    assert.match(error(convertMoney('1e3', 'EUR', settings)), /not a non-negative decimal/);
    assert.match(
      error(convertMoney('10.001', 'EUR', settings)),
      /more decimals than EUR allows \(2\)/,
    );
    assert.match(
      error(convertMoney('1', 'USD', { baseCurrency: 'EUR', rates: { USD: '0' } })),
      /not a positive decimal/,
    );
    assert.match(error(convertMoney('1'.repeat(30), 'EUR', settings)), /too large to govern/);
  });

  it('property: converting n minor units at rate r equals round-half-up(n × r) computed in integers', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.integer({ min: 0, max: 8 }),
        (minor, rateDigits, rateScale) => {
          const amount = formatMinor(Number(minor), 'USD');
          const rate = decimal(rateDigits, rateScale);
          const out = convertMoney(amount, 'USD', { baseCurrency: 'EUR', rates: { USD: rate } });
          // Expected in a different way: scale both to a common denominator, then round half up.
          const numerator = minor * rateDigits; // in 10^-(2 + rateScale)
          const denominator = 10n ** BigInt(rateScale);
          const expected = (numerator * 2n + denominator) / (2n * denominator);
          if (expected > BigInt(Number.MAX_SAFE_INTEGER)) return 'error' in out;
          return !('error' in out) && BigInt(out.baseMinor) === expected;
        },
      ),
    );
  });

  it('property: the base currency converts to itself exactly and formatMinor reads back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (minor) => {
        const text = formatMinor(minor, 'EUR');
        const out = convertMoney(text, 'EUR', settings);
        return !('error' in out) && out.baseMinor === minor && out.amount === text;
      }),
    );
  });
});

describe('gateway.governance configuration (issue 25)', () => {
  it('defaults to EUR with no rates and no policies', () => {
    const config = loadConfig({ env: {} });
    assert.equal(config.gateway.governance.baseCurrency, 'EUR');
    assert.deepEqual(config.gateway.governance.rates, {});
    assert.deepEqual(config.gateway.policies, []);
  });

  it('refuses an unknown currency code, a zero rate and a base rate other than 1, naming the key', () => {
    const load = (governance: unknown) =>
      loadConfig({ env: {}, overrides: { gateway: { governance } } });
    assert.throws(
      () => load({ rates: { XYZ: '1.1' } }),
      /gateway\.governance\.rates\.XYZ: XYZ is not an ISO 4217/,
    );
    assert.throws(
      () => load({ rates: { USD: '0.00' } }),
      /gateway\.governance\.rates\.USD: 0\.00 is invalid/,
    );
    assert.throws(
      () => load({ rates: { EUR: '1.1' } }),
      /gateway\.governance\.rates\.EUR: the base currency's own rate must be 1/,
    );
    assert.throws(
      () => load({ baseCurrency: 'ABC' }),
      /gateway\.governance\.baseCurrency: ABC is not an ISO 4217/,
    );
    assert.throws(() => load({ rates: { USD: '1,1' } }), /gateway\.governance\.rates\.USD/);
    assert.equal(load({ rates: { USD: 0.86, GBP: '1.17' } }).gateway.governance.rates['USD'], 0.86);
  });
});

function decimal(digits: bigint, scale: number): string {
  const text = digits.toString().padStart(scale + 1, '0');
  return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
}

function result<T>(value: T | { error: string }): T {
  if (typeof value === 'object' && value !== null && 'error' in value)
    assert.fail(`unexpected error: ${value.error}`);
  return value;
}

function error(value: object): string {
  assert.ok('error' in value, `expected an error, got ${JSON.stringify(value)}`);
  return String(value.error);
}
