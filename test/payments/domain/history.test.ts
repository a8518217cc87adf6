// The history's field-level difference (pointers, exact amounts, redaction, bounds) and the schedule
// progress getPayment shows (pure functions, clock given).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  diffRecords,
  MAX_CHANGES,
  MAX_VALUE_LENGTH,
  REDACTED,
} from '../../../src/payments/domain/history.js';
import type { PaymentOrder } from '../../../src/payments/domain/payment-order.js';
import { scheduleProgress } from '../../../src/payments/domain/schedule.js';

const payment = (amount: number, extra: Record<string, unknown> = {}) => ({
  paymentInstruction: { amount: { instructedAmount: amount, instructedCurrency: 'EUR' } },
  ...extra,
});

test('diff: changed, added and removed leaves with JSON pointers; amounts exact as strings', () => {
  const before = payment(125.5, {
    customFields: { note: 'old', 'a/b': 'x', gone: 1 },
    interestedParties: [{ partyName: 'A' }],
  });
  const after = payment(0.1, {
    customFields: { note: 'new', 'a/b': 'y', flag: true },
    interestedParties: [{ partyName: 'A' }, { partyName: 'B' }],
  });
  const { changes, truncated } = diffRecords(before, after);
  assert.equal(truncated, false);
  assert.deepEqual(changes, [
    { pointer: '/customFields/a~1b', before: 'x', after: 'y' },
    { pointer: '/customFields/flag', before: null, after: 'true' },
    { pointer: '/customFields/gone', before: '1', after: null },
    { pointer: '/customFields/note', before: 'old', after: 'new' },
    { pointer: '/interestedParties/1/partyName', before: null, after: 'B' },
    { pointer: '/paymentInstruction/amount/instructedAmount', before: '125.50', after: '0.10' },
  ]);
  assert.deepEqual(diffRecords(before, before), { changes: [], truncated: false });
});

test('diff: a whole new subtree is listed leaf by leaf; the amount uses each side’s currency', () => {
  const before = payment(10);
  const after: PaymentOrder = {
    paymentInstruction: {
      amount: { instructedAmount: 10.5, instructedCurrency: 'KWD' },
      schedule: { frequency: 'MONTHLY', noOfRepetition: 12 },
    },
  };
  assert.deepEqual(diffRecords(before, after).changes, [
    { pointer: '/paymentInstruction/amount/instructedAmount', before: '10.00', after: '10.500' },
    { pointer: '/paymentInstruction/amount/instructedCurrency', before: 'EUR', after: 'KWD' },
    { pointer: '/paymentInstruction/schedule/frequency', before: null, after: 'MONTHLY' },
    { pointer: '/paymentInstruction/schedule/noOfRepetition', before: null, after: '12' },
  ]);
});

test('diff: credential-like members are redacted, long texts cut, the list bounded', () => {
  const secret = 'hunter2-very-secret-value';
  const { changes } = diffRecords(
    { customFields: { apiKey: 'old-key', nested: { password: secret } } },
    { customFields: { apiKey: secret, nested: { password: 'other' } } },
  );
  assert.deepEqual(changes, [
    { pointer: '/customFields/apiKey', before: REDACTED, after: REDACTED },
    { pointer: '/customFields/nested/password', before: REDACTED, after: REDACTED },
  ]);
  assert.ok(!JSON.stringify(changes).includes(secret));

  const long = diffRecords({ customFields: { t: 'a' } }, { customFields: { t: 'b'.repeat(5000) } });
  const after = long.changes[0]?.after;
  assert.equal(typeof after === 'string' && after.length, MAX_VALUE_LENGTH);

  const many: Record<string, string> = {};
  for (let i = 0; i < MAX_CHANGES + 20; i += 1) many[`k${String(i).padStart(3, '0')}`] = 'v';
  const bounded = diffRecords({}, { customFields: many });
  assert.equal(bounded.changes.length, MAX_CHANGES);
  assert.equal(bounded.truncated, true);
});

test('schedule progress: remaining instances and the next date, after skips', () => {
  const record = (schedule: Record<string, unknown>) => ({ paymentInstruction: { schedule } });
  const monthly = record({
    startDate: '2027-01-01T00:00:00Z',
    frequency: 'MONTHLY',
    noOfRepetition: 12,
  });
  const today = new Date('2026-11-25T08:00:00Z');
  assert.deepEqual(scheduleProgress(monthly, 0, today), {
    remainingInstances: 12,
    nextExecutionDate: '2027-01-01T00:00:00.000Z',
  });
  assert.deepEqual(scheduleProgress(monthly, 1, today), {
    remainingInstances: 11,
    nextExecutionDate: '2027-02-01T00:00:00.000Z',
  });
  assert.deepEqual(scheduleProgress(monthly, 12, today), { remainingInstances: 0 });
  const open = record({ startDate: '2027-01-01T00:00:00Z', frequency: 'WEEKLY' });
  assert.deepEqual(scheduleProgress(open, 2, today), {
    remainingInstances: null,
    nextExecutionDate: '2027-01-15T00:00:00.000Z',
  });
  assert.equal(scheduleProgress({ paymentInstruction: {} }, 0, today), undefined);
});
