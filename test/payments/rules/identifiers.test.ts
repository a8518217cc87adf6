// Identifiers in payment records: IBANs are checked in their electronic form (spaces and lower case
// removed first) and stored that way; US routing numbers in bank references pass the ABA check digit.
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
import { NOW, sepaCreditTransfer, usAchCredit } from './fixtures.js';

type Json = Record<string, unknown>;
const errorsOf = (body: Json) => (body['errors'] ?? []) as { pointer: string; code: string }[];
const payeeAccountId = (body: Json) =>
  ((body['payeeAccountReference'] as Json)['paymentInstructionAccount'] as Record<string, unknown>)[
    'accountId'
  ];

forEachStore('identifier rules', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());

  test('an IBAN written with spaces and wrong check digits is refused (AC01), not stored', async () => {
    const record = sepaCreditTransfer({ payeeIban: 'DE89 3704 0044 0532 0130 01' });
    const res = await send(h, 'alice', 'POST', 'payments', record);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(
      errorsOf(json(res)).map((e) => [e.pointer, e.code]),
      [['/payeeAccountReference/paymentInstructionAccount/accountId', 'IBAN_INVALID']],
    );
    const list = json(await send(h, 'alice', 'GET', 'payments'));
    assert.deepEqual(list['items'], []);
  });

  test('a valid IBAN in lower case with spaces is accepted and stored in electronic form', async () => {
    const record = sepaCreditTransfer({ payeeIban: 'de02 1203 0000 0000 2020 51' });
    const res = await send(h, 'alice', 'POST', 'payments', record);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(payeeAccountId(json(res)), 'DE02120300000000202051');
  });

  test('a US routing number with a wrong ABA check digit is refused (RC01) with its pointer', async () => {
    const res = await send(
      h,
      'alice',
      'POST',
      'payments',
      usAchCredit({ payeeRouting: '011000016' }),
    );
    assert.equal(res.statusCode, 422, res.body);
    const errors = json(res)['errors'] as {
      pointer: string;
      code: string;
      reason: string;
      message: string;
    }[];
    assert.deepEqual(
      errors.map((e) => [e.pointer, e.code, e.reason]),
      [
        [
          '/payeeBankReference/involvedParty/organisationIdentification/identificationNo',
          'ROUTING_NUMBER_INVALID',
          'RC01',
        ],
      ],
    );
    assert.match(errors[0]?.message ?? '', /checksum/);
    const ok = await send(h, 'alice', 'POST', 'payments', usAchCredit());
    assert.equal(ok.statusCode, 201, ok.body);
  });
});
