// The one rule engine: validatePayment and createPayment report every broken rule at once, each with its
// JSON pointer, stable code, ISO 20022 reason code and a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  openHarness,
  send,
  json,
  type Harness,
  holdSampleAccounts,
} from '../harness.js';
import { sepaCreditTransfer, NOW } from './fixtures.js';

interface Reason {
  pointer: string;
  code: string;
  reason: string;
  message: string;
}

const broken = () =>
  sepaCreditTransfer({
    payeeIban: 'DE89370400440532013001',
    amount: { instructedAmount: 100.505, instructedCurrency: 'EUR' },
    payeeCountry: 'XX',
  });

const expected = [
  ['/paymentInstruction/amount/instructedAmount', 'AMOUNT_PRECISION', 'AM12'],
  ['/payeeAccountReference/paymentInstructionAccount/accountId', 'IBAN_INVALID', 'AC01'],
  ['/payeeReference/involvedParty/address/country', 'COUNTRY_UNKNOWN', 'BE09'],
];

forEachStore('rule engine', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  test('validatePayment lists every problem with pointer, code, ISO 20022 reason and message', async () => {
    const res = await send(h, undefined, 'POST', 'payments/validate', broken());
    assert.equal(res.statusCode, 201, res.body);
    const ref = json(res)['paymentInstructionReference'] as Record<string, unknown>;
    const reasons = ref['statusReasons'] as Reason[];
    assert.equal(ref['status'], 'FAILED');
    assert.equal(ref['reason'], reasons[0]?.reason);
    for (const [pointer, code, reason] of expected) {
      const found = reasons.find((r) => r.pointer === pointer);
      assert.ok(found, `${pointer} missing from ${JSON.stringify(reasons)}`);
      assert.deepEqual([found.code, found.reason], [code, reason]);
      assert.ok(found.message.length > 10, found.message);
    }
    assert.equal(reasons.length, expected.length, JSON.stringify(reasons));
  });

  test('a valid instruction gets ACTC and no statusReasons; client-sent ones are not echoed', async () => {
    const record = sepaCreditTransfer();
    record['paymentInstructionReference'] = {
      statusReasons: [{ pointer: '/x', code: 'X', reason: 'AC01', message: 'stale' }],
      reason: 'AC01',
    };
    const res = await send(h, 'alice', 'POST', 'payments/validate', record);
    const ref = json(res)['paymentInstructionReference'] as Record<string, unknown>;
    assert.deepEqual(
      [ref['status'], ref['reason'], ref['statusReasons']],
      ['INITIATED', 'ACTC', undefined],
    );
    // Anonymous: technically valid (ACTC), but with no payer whose account and funds could be checked
    // the status is not known (null), never INITIATED (issue 26, item 1).
    const anonymous = await send(h, undefined, 'POST', 'payments/validate', record);
    const anon = json(anonymous)['paymentInstructionReference'] as Record<string, unknown>;
    assert.deepEqual(
      [anon['status'], anon['reason'], anon['statusReasons']],
      [null, 'ACTC', undefined],
    );
  });

  test('createPayment refuses the same record with the same list, each entry with its reason', async () => {
    const res = await send(h, 'alice', 'POST', 'payments', broken());
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const errors = json(res)['errors'] as Reason[];
    assert.deepEqual(errors.map((e) => [e.pointer, e.code, e.reason]).sort(), [...expected].sort());
  });
});
