// Tracker issue 14, done-when: five realistic payments walk the whole life a bank would give them —
// validatePayment, a fee quote, createPayment, updatePayment (the record read back, one field changed,
// If-Match), cancelPayment — and the history shows each step. The payments: a SEPA credit transfer between
// German IBANs, a US ACH credit with routing numbers, a domestic Fedwire transfer, a cross-border SWIFT
// transfer to a BIC under each charge bearer, and a monthly SEPA schedule. The clock is pinned.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  json,
  openHarness,
  send,
  type Harness,
  holdSampleAccounts,
} from './harness.js';
import {
  NOW,
  fedwireTransfer,
  sepaCreditTransfer,
  swiftTransfer,
  usAchCredit,
} from './rules/fixtures.js';

type Json = Record<string, unknown>;
const ref = (body: Json) => body['paymentInstructionReference'] as Json;

const monthlySchedule = (): Json => {
  const record = sepaCreditTransfer();
  (record['paymentInstruction'] as Json)['schedule'] = {
    startDate: '2027-01-04T00:00:00Z',
    frequency: 'MONTHLY',
    noOfRepetition: 12,
  };
  return record;
};

const swiftWith = (chargeBearer: string): Json => {
  const record = swiftTransfer();
  (record['paymentInstruction'] as Json)['chargeBearer'] = chargeBearer;
  return record;
};

/** The fee query for a payment: the same parties, accounts, amount, charge bearer, priority and rail. */
function feeQuery(record: Json): Json {
  const instruction = record['paymentInstruction'] as Json;
  const query: Json = { identification: 'Q-scenario', amount: instruction['amount'] };
  for (const key of [
    'payerReference',
    'payerBankReference',
    'payeeReference',
    'payeeBankReference',
    'payerAccountReference',
    'payeeAccountReference',
  ])
    if (record[key] !== undefined) query[key] = record[key];
  if (instruction['chargeBearer'] !== undefined)
    query['chargeBearer'] = instruction['chargeBearer'];
  if (instruction['priority'] !== undefined) query['priority'] = instruction['priority'];
  if (instruction['requestedMechanism'] !== undefined)
    query['usedMechanism'] = instruction['requestedMechanism'];
  return query;
}

const SCENARIOS: readonly [string, () => Json, string][] = [
  ['SEPA credit transfer between German IBANs', () => sepaCreditTransfer(), 'COMPLETE_SCHEDULE'],
  ['US ACH credit with routing numbers', () => usAchCredit(), 'COMPLETE_SCHEDULE'],
  ['domestic Fedwire customer transfer', () => fedwireTransfer(), 'COMPLETE_SCHEDULE'],
  ['cross-border SWIFT to CHASUS33, charges DEBT', () => swiftWith('DEBT'), 'COMPLETE_SCHEDULE'],
  ['cross-border SWIFT to CHASUS33, charges CRED', () => swiftWith('CRED'), 'COMPLETE_SCHEDULE'],
  ['cross-border SWIFT to CHASUS33, charges SHAR', () => swiftWith('SHAR'), 'COMPLETE_SCHEDULE'],
  ['monthly SEPA schedule, one instance skipped', monthlySchedule, 'SINGLE_PAYMENT_INSTANCE'],
];

forEachStore('realistic payments from validation to cancellation', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'walker');
  });
  after(async () => h.close());

  for (const [name, build, cancellation] of SCENARIOS)
    test(name, async () => {
      const record = build();

      const validated = await send(h, 'walker', 'POST', 'payments/validate', record);
      assert.equal(validated.statusCode, 201, validated.body);
      assert.deepEqual(
        [ref(json(validated))['reason'], ref(json(validated))['statusReasons']],
        ['ACTC', undefined],
        validated.body,
      );

      const quote = await send(h, 'walker', 'POST', 'payments/fetch-fees', feeQuery(record));
      assert.equal(quote.statusCode, 201, quote.body);
      const fees = json(quote)['appliedFee'] as Json[];
      assert.ok(fees.length > 0, 'a quote names its fees');
      const lines = ((json(quote)['customFields'] as Json)['feeQuote'] as Json)['lines'] as Json[];
      assert.equal(lines.length, fees.length, 'each fee is explained by a line');
      for (const line of lines) assert.equal(typeof line['rule'], 'string', JSON.stringify(line));

      const created = await send(h, 'walker', 'POST', 'payments', record);
      assert.equal(created.statusCode, 201, created.body);
      const id = String(ref(json(created))['identification']);

      // The record read back, one field changed, sent with its version: the rest is kept.
      const read = await send(h, 'walker', 'GET', `payments/${id}`);
      const changed = structuredClone(json(read));
      const amount = (changed['paymentInstruction'] as Json)['amount'] as Json;
      amount['instructedAmount'] = Number(amount['instructedAmount']) + 1;
      const updated = await send(h, 'walker', 'PUT', `payments/${id}`, changed, {
        'if-match': String(read.headers['etag']),
      });
      assert.equal(updated.statusCode, 200, updated.body);
      assert.deepEqual(
        json(updated)['payeeAccountReference'],
        json(read)['payeeAccountReference'],
        'an update keeps what it does not change',
      );
      assert.equal(ref(json(updated))['status'], ref(json(read))['status'], 'and the status');

      const cancelled = await send(h, 'walker', 'POST', `payments/${id}/cancel`, {
        cancellationType: cancellation,
      });
      assert.equal(json(cancelled)['status'], 'success', cancelled.body);

      const history = await send(h, 'walker', 'GET', `payments/${id}/history`);
      assert.equal(history.statusCode, 200, history.body);
      assert.deepEqual(
        (json(history)['items'] as Json[]).map((e) => e['kind']),
        ['CANCELLED', 'UPDATED', 'CREATED'],
      );
    });
});
