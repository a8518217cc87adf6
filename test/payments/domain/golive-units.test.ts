// Pure pieces of issue 26's go-live list: exchange arithmetic (item 1's conversion, item 7's transfer
// amount), business-day conventions (item 8) and what makes two orders "the same order" (item 8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  costOf,
  matchesRate,
  staleRate,
  type RateTable,
} from '../../../src/payments/domain/fees/fx.js';
import { rollExecutionDate } from '../../../src/payments/domain/execution-date.js';
import { duplicateKey } from '../../../src/payments/domain/duplicates.js';
import type { PaymentOrder } from '../../../src/payments/domain/payment-order.js';

const table: RateTable = {
  source: 'unit',
  marginBasisPoints: 0,
  pairs: {
    'EUR/USD': { mid: 1.16, asOf: '2026-11-24T16:00:00Z' },
    'EUR/JPY': { mid: 180.5, marginBasisPoints: 50 },
  },
};

test('costOf: what the payer pays in the account currency, rounded up, either direction of the pair', () => {
  assert.equal(costOf(table, 'EUR', 'USD', 90000000n, 2, 2), 77586207n); // USD 900,000 → EUR 775,862.07
  assert.equal(costOf(table, 'EUR', 'USD', 116n, 2, 2), 100n); // exact: no rounding up
  assert.equal(costOf(table, 'USD', 'EUR', 100n, 2, 2), 116n); // reverse pair
  // JPY 180,500 at 180.5 less 50 bp = 179.5975 → EUR 1,005.02 (rounded up)
  assert.equal(costOf(table, 'EUR', 'JPY', 180500n, 2, 0), 100503n);
  assert.equal(costOf(table, 'EUR', 'CHF', 100n, 2, 2), undefined);
});

test('matchesRate: within half a minor unit of the exact product, in either rate direction', () => {
  assert.equal(matchesRate(100000n, 2, 116257n, 2, 1.16257, true), true);
  assert.equal(matchesRate(100000n, 2, 116258n, 2, 1.16257, true), false);
  assert.equal(matchesRate(100000n, 2, 116279n, 2, 0.86, false), true); // 1000 / 0.86 = 1162.7906…
  assert.equal(matchesRate(100000n, 2, 116280n, 2, 0.86, false), false);
  assert.equal(matchesRate(1000n, 2, 1805n, 0, 180.5, true), true); // EUR 10 → JPY 1805
});

test('staleRate: older than the limit names the pair and asOf; no asOf has no age', () => {
  const now = new Date('2026-11-25T08:00:00Z');
  assert.deepEqual(staleRate(table, 'USD', 'EUR', now, 3600_000), {
    pair: 'EUR/USD',
    asOf: '2026-11-24T16:00:00Z',
  });
  assert.equal(staleRate(table, 'USD', 'EUR', now, 86400_000), undefined);
  assert.equal(staleRate(table, 'EUR', 'JPY', now, 1000), undefined);
});

const target = {
  rail: 'SEPA',
  calendar: {
    timeZone: 'Europe/Berlin',
    weekendDays: [0, 6],
    holidays: new Set(['2026-12-25', '2026-12-26', '2027-01-01']),
  },
};
const now = new Date('2026-11-25T08:00:00Z');

test('rollExecutionDate: FOLLOWING, MODIFIED_FOLLOWING at month end, PRECEDING never before today', () => {
  assert.equal(rollExecutionDate('2026-11-30T09:00:00Z', target, 'FOLLOWING', now), undefined);
  assert.equal(
    rollExecutionDate('2026-11-28T09:00:00Z', target, 'FOLLOWING', now)?.executionDate,
    '2026-11-30T09:00:00.000Z',
  );
  // Saturday 2027-01-30: the following business day is in February, so MODIFIED_FOLLOWING goes back.
  assert.equal(
    rollExecutionDate('2027-01-30T09:00:00Z', target, 'MODIFIED_FOLLOWING', now)?.executionDate,
    '2027-01-29T09:00:00.000Z',
  );
  assert.equal(
    rollExecutionDate('2027-01-16T09:00:00Z', target, 'MODIFIED_FOLLOWING', now)?.executionDate,
    '2027-01-18T09:00:00.000Z',
  );
  // Saturday 2026-11-28 with today Saturday: PRECEDING would be yesterday, so the following day.
  assert.equal(
    rollExecutionDate('2026-11-28T12:00:00Z', target, 'PRECEDING', new Date('2026-11-28T08:00:00Z'))
      ?.executionDate,
    '2026-11-30T12:00:00.000Z',
  );
  const christmas = rollExecutionDate('2026-12-25T10:00:00+01:00', target, 'FOLLOWING', now);
  assert.deepEqual(
    [christmas?.executionDate, christmas?.reason],
    ['2026-12-28T09:00:00.000Z', 'HOLIDAY'],
  );
});

test('duplicateKey: accounts in electronic form, the execution day, amount and references', () => {
  const order = (
    accountId: string,
    requestedExecutionDate?: string,
    content = 'Rent',
  ): PaymentOrder => ({
    payerAccountReference: { paymentInstructionAccount: { accountId: 'DE89370400440532013000' } },
    payeeAccountReference: { paymentInstructionAccount: { accountId } },
    paymentInstruction: {
      amount: { instructedAmount: 10, instructedCurrency: 'EUR' },
      ...(requestedExecutionDate ? { paymentDates: { requestedExecutionDate } } : {}),
    },
    paymentProcessingConfiguration: { remittanceInfo: { content } },
  });
  const plain = duplicateKey(order('GB29NWBK60161331926819', '2026-12-01T09:00:00Z'));
  assert.equal(duplicateKey(order('gb29 nwbk 6016 1331 9268 19', '2026-12-01T17:00:00Z')), plain);
  assert.notEqual(duplicateKey(order('GB29NWBK60161331926819', '2026-12-02T09:00:00Z')), plain);
  assert.notEqual(
    duplicateKey(order('GB29NWBK60161331926819', '2026-12-01T09:00:00Z', 'Rent 2')),
    plain,
  );
  assert.notEqual(duplicateKey(order('GB29NWBK60161331926819')), plain);
});
