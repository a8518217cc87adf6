import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import type { FeeRuleConfig } from '../../src/config/payments-fees.js';
import {
  computeFeeLines,
  explainFees,
  toAppliedFees,
  type FeeInput,
  type FeeRule,
} from '../../src/payments/domain/fees/schedule.js';
import { fromMinor, toMinorExact, toMinorRounded } from '../../src/payments/domain/fees/money.js';

const defaults = loadConfig({ env: {} }).payments.fees;

function quote(
  partial: Partial<FeeInput> & { amount: number },
  rules: readonly FeeRule[] = defaults.rules,
) {
  const currency = partial.currency ?? 'EUR';
  const minorUnit = partial.minorUnit ?? (currency === 'JPY' ? 0 : currency === 'BHD' ? 3 : 2);
  const input: FeeInput = {
    currency,
    minorUnit,
    channel: 'MPNS',
    priority: 'NORM',
    chargeBearer: 'SHAR',
    scope: 'DOMESTIC',
    ...partial,
    amountMinor: toMinorExact(partial.amount, minorUnit) ?? 0n,
  };
  return toAppliedFees(computeFeeLines(rules, input), input).map((f) => `${f.type}=${f.amount}`);
}

const rule = (r: Partial<FeeRuleConfig> & { id: string; type: string }): FeeRuleConfig => ({
  chargedBy: 'PAYER_BANK',
  channels: [],
  priorities: [],
  scope: 'ANY',
  chargeBearers: [],
  currencies: [],
  flat: 0,
  percent: 0,
  ...r,
});

test('money: exact minor units, half-up rounding of configured values, back to numbers', () => {
  assert.equal(toMinorExact(125.5, 2), 12550n);
  assert.equal(toMinorExact(0.1, 2), 10n);
  assert.equal(toMinorExact(1.234, 2), undefined);
  assert.equal(toMinorExact(1500, 0), 1500n);
  assert.equal(toMinorRounded(0.125, 2), 13n);
  assert.equal(fromMinor(1235n, 3), 1.235);
  assert.equal(fromMinor(5n, 2), 0.05);
  assert.equal(fromMinor(2735n, 0), 2735);
});

test('each clearing channel has its own domestic price', () => {
  assert.deepEqual(quote({ amount: 1000, channel: 'MPNS' }), ['DEBTOR_TRANSFER_FEE=0.25']);
  assert.deepEqual(quote({ amount: 1000, channel: 'RTNS' }), ['DEBTOR_TRANSFER_FEE=0.5']);
  assert.deepEqual(quote({ amount: 1000, channel: 'RTGS' }), ['DEBTOR_TRANSFER_FEE=15']);
  assert.deepEqual(quote({ amount: 1000, channel: 'BOOK' }), ['DEBTOR_TRANSFER_FEE=0']);
  assert.deepEqual(quote({ amount: 1000, channel: 'RTGS', currency: 'USD' }), [
    'DEBTOR_TRANSFER_FEE=25',
  ]);
});

test('priority HIGH adds a surcharge on RTGS and MPNS, not on instant payments', () => {
  assert.deepEqual(quote({ amount: 1000, channel: 'MPNS', priority: 'HIGH' }), [
    'DEBTOR_TRANSFER_FEE=0.25',
    'DEBTOR_PRIORITY_SURCHARGE=10',
  ]);
  assert.deepEqual(quote({ amount: 1000, channel: 'RTNS', priority: 'HIGH' }), [
    'DEBTOR_TRANSFER_FEE=0.5',
  ]);
});

test('charge bearer decides who bears each fee (cross-border)', () => {
  const base = { amount: 12345.67, channel: 'RTGS', scope: 'CROSS_BORDER' } as const;
  assert.deepEqual(quote({ ...base, chargeBearer: 'DEBT' }), [
    'DEBTOR_TRANSFER_FEE=22.35',
    'DEBTOR_OUR_SURCHARGE=20',
    'DEBTOR_RECEIVING_FEE=5',
  ]);
  assert.deepEqual(quote({ ...base, chargeBearer: 'CRED' }), [
    'CREDITOR_TRANSFER_FEE=22.35',
    'CREDITOR_RECEIVING_FEE=5',
  ]);
  assert.deepEqual(quote({ ...base, chargeBearer: 'SHAR' }), [
    'DEBTOR_TRANSFER_FEE=22.35',
    'CREDITOR_RECEIVING_FEE=5',
  ]);
  assert.deepEqual(
    quote({ ...base, chargeBearer: 'SLEV' }),
    quote({ ...base, chargeBearer: 'SHAR' }),
  );
});

test('cross-border percentage is clamped to its minimum and maximum; large values add a fee', () => {
  const xb = { channel: 'RTGS', scope: 'CROSS_BORDER' } as const;
  assert.deepEqual(quote({ ...xb, amount: 100 }), [
    'DEBTOR_TRANSFER_FEE=15',
    'CREDITOR_RECEIVING_FEE=5',
  ]);
  assert.deepEqual(quote({ ...xb, amount: 1000000 }), [
    'DEBTOR_TRANSFER_FEE=100',
    'DEBTOR_LARGE_VALUE_FEE=100',
    'CREDITOR_RECEIVING_FEE=5',
  ]);
});

test('fees round half up to the minor unit of each currency (JPY 0, EUR 2, BHD 3)', () => {
  const pct = [rule({ id: 'p', type: 'TRANSFER_FEE', percent: 0.1 })];
  assert.deepEqual(quote({ amount: 1235, currency: 'EUR' }, pct), ['DEBTOR_TRANSFER_FEE=1.24']);
  assert.deepEqual(quote({ amount: 1234.5, currency: 'EUR' }, pct), ['DEBTOR_TRANSFER_FEE=1.23']);
  assert.deepEqual(quote({ amount: 123456, currency: 'JPY' }, pct), ['DEBTOR_TRANSFER_FEE=123']);
  assert.deepEqual(quote({ amount: 123500, currency: 'JPY' }, pct), ['DEBTOR_TRANSFER_FEE=124']);
  assert.deepEqual(quote({ amount: 1234.567, currency: 'BHD' }, pct), [
    'DEBTOR_TRANSFER_FEE=1.235',
  ]);
  // The shipped JPY cross-border rule: 1500 + 0.1 % of 1 234 567 = 2734.567 → 2735.
  assert.deepEqual(
    quote({ amount: 1234567, currency: 'JPY', channel: 'RTGS', scope: 'CROSS_BORDER' }),
    ['DEBTOR_TRANSFER_FEE=2735', 'CREDITOR_RECEIVING_FEE=750'],
  );
});

test('amount bands select the rule; first matching rule per fee type wins', () => {
  const bands = [
    rule({ id: 'small', type: 'TRANSFER_FEE', maxAmount: 1000, flat: 1 }),
    rule({ id: 'large', type: 'TRANSFER_FEE', minAmount: 1000, flat: 3 }),
    rule({ id: 'never', type: 'TRANSFER_FEE', flat: 99 }),
  ];
  assert.deepEqual(quote({ amount: 999.99 }, bands), ['DEBTOR_TRANSFER_FEE=1']);
  assert.deepEqual(quote({ amount: 1000 }, bands), ['DEBTOR_TRANSFER_FEE=3']);
});

test('customer tiers discount and waive payer-bank fees only', () => {
  const base = { amount: 12345.67, channel: 'RTGS', scope: 'CROSS_BORDER' } as const;
  assert.deepEqual(
    quote({ ...base, tier: { name: 'premium', discountPercent: 50, waivedTypes: [] } }),
    ['DEBTOR_TRANSFER_FEE=11.18', 'CREDITOR_RECEIVING_FEE=5'],
  );
  assert.deepEqual(
    quote({
      ...base,
      chargeBearer: 'DEBT',
      tier: { name: 'gold', discountPercent: 0, waivedTypes: ['OUR_SURCHARGE'] },
    }),
    ['DEBTOR_TRANSFER_FEE=22.35', 'DEBTOR_OUR_SURCHARGE=0', 'DEBTOR_RECEIVING_FEE=5'],
  );
});

function explain(partial: Partial<FeeInput> & { amount: number }) {
  const currency = partial.currency ?? 'EUR';
  const input: FeeInput = {
    currency,
    minorUnit: 2,
    channel: 'RTGS',
    priority: 'NORM',
    chargeBearer: 'SHAR',
    scope: 'CROSS_BORDER',
    ...partial,
    amountMinor: toMinorExact(partial.amount, 2) ?? 0n,
  };
  return explainFees(computeFeeLines(defaults.rules, input), defaults.rules, input);
}

test('each fee line names its rule and how it was priced (method, minimum/maximum, band, surcharge)', () => {
  const plain = explain({ amount: 12345.67 });
  assert.deepEqual(plain[0], {
    type: 'DEBTOR_TRANSFER_FEE',
    amount: 22.35,
    currency: 'EUR',
    rule: 'cross-border',
    description: 'cross-border transfer: 10 + 0.1 %, at least 15, at most 100',
    method: 'FLAT_PLUS_PERCENT',
    flat: 10,
    percent: 0.1,
    percentAmount: 12.35,
    minimum: 15,
    maximum: 100,
    minimumApplied: false,
    maximumApplied: false,
    tiered: false,
    surcharge: false,
    chargedBy: 'PAYER_BANK',
    listPrice: 22.35,
  });
  assert.deepEqual(
    { rule: plain[1]?.['rule'], method: plain[1]?.['method'], type: plain[1]?.['type'] },
    { rule: 'receiving', method: 'FLAT', type: 'CREDITOR_RECEIVING_FEE' },
  );
  const small = explain({ amount: 100 })[0];
  assert.equal(small?.['amount'], 15);
  assert.equal(small?.['minimumApplied'], true);
  assert.equal(small?.['maximumApplied'], false);
  const large = explain({ amount: 2000000, priority: 'HIGH', chargeBearer: 'DEBT' });
  assert.deepEqual(
    large.map((l) => [l['rule'], l['method'], l['maximumApplied'], l['surcharge'], l['tiered']]),
    [
      ['cross-border', 'FLAT_PLUS_PERCENT', true, false, false],
      ['priority', 'FLAT', false, true, false],
      ['large-value', 'PERCENT', false, false, true],
      ['our-surcharge', 'FLAT', false, true, false],
      ['receiving', 'FLAT', false, false, false],
    ],
  );
  assert.deepEqual(large[2]?.['band'], { from: 1000000 });
  assert.equal(large[2]?.['percentAmount'], 200);
});

test('fee lines show the customer pricing applied on top of the list price', () => {
  const lines = explain({
    amount: 12345.67,
    tier: { name: 'premium', discountPercent: 50, waivedTypes: ['OUR_SURCHARGE'] },
    chargeBearer: 'DEBT',
  });
  assert.deepEqual(
    lines.map((l) => [l['rule'], l['listPrice'], l['amount'], l['pricing']]),
    [
      ['cross-border', 22.35, 11.18, { tier: 'premium', discountPercent: 50, waived: false }],
      ['our-surcharge', 20, 0, { tier: 'premium', discountPercent: 100, waived: true }],
      ['receiving', 5, 5, undefined],
    ],
  );
});
