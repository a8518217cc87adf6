// Issue 26, "Execution engine": a payment moves on its execution date, after the rail's cut-off in the
// rail's time zone (the fee quote's clock: calendars, holidays, daylight saving). Pure planning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/load.js';
import {
  dueActions,
  executionTimes,
  nextAction,
  type Candidate,
} from '../../../src/payments/engine/plan.js';
import type { PaymentOrder } from '../../../src/payments/domain/payment-order.js';
import { demoIbanFor } from '../../../src/payments/domain/demo-account.js';

const fees = loadConfig({ env: {} }).payments.fees;

function order(
  mechanism: string,
  currency: string,
  extra: Partial<PaymentOrder> = {},
): PaymentOrder {
  return {
    payerAccountReference: { paymentInstructionAccount: { accountId: 'DE89370400440532013000' } },
    payeeAccountReference: { paymentInstructionAccount: { accountId: 'DE02120300000000202051' } },
    paymentInstruction: { amount: { instructedAmount: 10, instructedCurrency: currency } },
    paymentInstructionReference: { usedMechanism: mechanism },
    ...extra,
  };
}

const due = (o: PaymentOrder, accepted: string) =>
  executionTimes(o, new Date(accepted), fees).dueAt.toISOString();

test('SEPA (batch rail, 14:00 Frankfurt): due at the cut-off of the day it was accepted before it', () => {
  assert.equal(due(order('SEPA', 'EUR'), '2026-12-01T12:00:00Z'), '2026-12-01T13:00:00.000Z');
  const t = executionTimes(order('SEPA', 'EUR'), new Date('2026-12-01T12:00:00Z'), fees);
  assert.equal(t.rail, 'SEPA');
  assert.equal(t.timeZone, 'Europe/Berlin');
  // D+1 value date: settles at the start of the next TARGET day, Frankfurt time.
  assert.equal(t.settleAt.toISOString(), '2026-12-01T23:00:00.000Z');
});

test('SEPA accepted after the cut-off rolls to the next business day (weekend and TARGET holidays)', () => {
  assert.equal(due(order('SEPA', 'EUR'), '2026-12-01T13:30:00Z'), '2026-12-02T13:00:00.000Z');
  // Friday after the cut-off → Monday.
  assert.equal(due(order('SEPA', 'EUR'), '2026-12-04T14:00:00Z'), '2026-12-07T13:00:00.000Z');
  // Requested for Christmas Day (TARGET closed 25 and 26 December) → Monday 28th.
  const christmas = order('SEPA', 'EUR', {
    paymentInstruction: {
      amount: { instructedAmount: 10, instructedCurrency: 'EUR' },
      paymentDates: { requestedExecutionDate: '2026-12-25T09:00:00Z' },
    },
  });
  assert.equal(due(christmas, '2026-12-01T09:00:00Z'), '2026-12-28T13:00:00.000Z');
});

test('Fedwire (real-time rail, 18:00 New York) across the daylight-saving change', () => {
  // Friday 6 March 2026, 17:30 EST: before the cut-off, due at once.
  assert.equal(due(order('FEDWIRE', 'USD'), '2026-03-06T22:30:00Z'), '2026-03-06T22:30:00.000Z');
  // Monday 9 March 2026 (EDT since the 8th), 22:30Z is 18:30 EDT: after the cut-off → Tuesday 00:00 EDT.
  assert.equal(due(order('FEDWIRE', 'USD'), '2026-03-09T22:30:00Z'), '2026-03-10T04:00:00.000Z');
  // Same UTC time the Friday before: 17:30 EST, still before the cut-off.
  const t = executionTimes(order('FEDWIRE', 'USD'), new Date('2026-03-06T22:30:00Z'), fees);
  assert.equal(t.timeZone, 'America/New_York');
  assert.equal(t.settleAt.toISOString(), t.dueAt.toISOString()); // same-day settlement
});

test('a requested execution date given at UTC midnight is a New York evening: the rail zone decides', () => {
  const o = order('FEDWIRE', 'USD', {
    paymentInstruction: {
      amount: { instructedAmount: 10, instructedCurrency: 'USD' },
      paymentDates: { requestedExecutionDate: '2026-12-02T00:00:00Z' }, // 19:00 on 1 Dec in New York
    },
  });
  assert.equal(due(o, '2026-11-20T12:00:00Z'), '2026-12-02T05:00:00.000Z');
});

test('a book transfer between two accounts of this bank runs on the bank clock (20:00 Berlin)', () => {
  const o = order('BOOK', 'EUR');
  const t = executionTimes(o, new Date('2026-12-01T09:00:00Z'), fees);
  assert.equal(t.rail, 'BANK');
  assert.equal(t.dueAt.toISOString(), '2026-12-01T19:00:00.000Z');
  // Without any mechanism, two IBANs of one bank code are a book transfer too.
  const same = order('', 'EUR', {
    paymentInstructionReference: {},
    payeeAccountReference: { paymentInstructionAccount: { accountId: demoIbanFor('bob') } },
  });
  assert.equal(executionTimes(same, new Date('2026-12-01T09:00:00Z'), fees).channel, 'BOOK');
});

const candidate = (
  id: string,
  status: Candidate['status'],
  record: PaymentOrder,
  at: string,
): Candidate => ({
  id,
  status,
  record,
  createdAt: at,
  updatedAt: at,
  instancesConsumed: 0,
});

test('dueActions: only what is due at the instant, oldest first; PENDING settles, terminal ones never move', () => {
  const list = [
    candidate('B', 'INITIATED', order('SEPA', 'EUR'), '2026-12-01T12:00:00Z'), // due 13:00Z
    candidate('A', 'INITIATED', order('FEDWIRE', 'USD'), '2026-12-01T15:00:00Z'), // due 15:00Z
    candidate('C', 'PENDING', order('SEPA', 'EUR'), '2026-12-01T12:00:00Z'), // settles 23:00Z
    candidate('D', 'COMPLETED', order('SEPA', 'EUR'), '2026-12-01T12:00:00Z'),
    candidate('E', 'INITIATED', order('SEPA', 'EUR'), '2026-12-01T13:30:00Z'), // next day
  ];
  const at = (iso: string) =>
    dueActions(list, new Date(iso), fees).map((a) => `${a.kind}:${a.paymentId}`);
  assert.deepEqual(at('2026-12-01T12:59:59Z'), []);
  assert.deepEqual(at('2026-12-01T13:00:00Z'), ['EXECUTE:B']);
  assert.deepEqual(at('2026-12-01T16:00:00Z'), ['EXECUTE:B', 'EXECUTE:A']);
  assert.deepEqual(at('2026-12-02T13:00:00Z'), ['EXECUTE:B', 'EXECUTE:A', 'SETTLE:C', 'EXECUTE:E']);
});

test('a standing order produces instance n at its n-th execution; after the last, it finishes', () => {
  const monthly = order('SEPA', 'EUR', {
    paymentInstruction: {
      amount: { instructedAmount: 10, instructedCurrency: 'EUR' },
      schedule: { startDate: '2026-12-01T08:00:00Z', frequency: 'WEEKLY', noOfRepetition: 3 },
    },
  });
  const c = candidate('S', 'SCHEDULED', monthly, '2026-11-20T10:00:00Z');
  assert.deepEqual(nextAction(c, fees), {
    kind: 'INSTANCE',
    paymentId: 'S',
    at: new Date('2026-12-01T08:00:00Z'),
    instance: 0,
    executeAt: new Date('2026-12-01T08:00:00Z'),
  });
  assert.equal(
    nextAction({ ...c, instancesConsumed: 2 }, fees)?.at.toISOString(),
    '2026-12-15T08:00:00.000Z',
  );
  assert.equal(nextAction({ ...c, instancesConsumed: 3 }, fees)?.kind, 'FINISH');
  assert.equal(nextAction({ ...c, status: 'SUSPENDED' }, fees), undefined);
});
