// Scheme consistency: SEPA needs EUR and IBANs of SEPA countries; ACH and Fedwire need USD and the payee
// bank's routing number; a payment from an account to itself is refused. Realistic payments from fixtures.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  holdAccount,
  openHarness,
  send,
  json,
  type Harness,
  holdSampleAccounts,
} from '../harness.js';
import {
  NOW,
  fedwireTransfer,
  sepaCreditTransfer,
  swiftTransfer,
  usAchCredit,
} from './fixtures.js';

type Json = Record<string, unknown>;
type Entry = { pointer: string; code: string; reason: string };
const entries = (body: Json) =>
  ((body['errors'] ?? []) as Entry[]).map((e) => [e.pointer, e.code, e.reason]);
const CURRENCY = '/paymentInstruction/amount/instructedCurrency';
const ROUTING = '/payeeBankReference/involvedParty/organisationIdentification/identificationNo';

forEachStore('scheme rules', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());
  const create = (record: Json, headers: Record<string, string> = {}) =>
    send(h, 'alice', 'POST', 'payments', record, headers);

  test('the four realistic payments are accepted', async () => {
    for (const record of [
      sepaCreditTransfer(),
      usAchCredit(),
      fedwireTransfer(),
      swiftTransfer(),
    ]) {
      const res = await create(record);
      assert.equal(res.statusCode, 201, res.body);
    }
  });

  test('SEPA in USD is refused (CURR), also when the scheme comes from the Used-Mechanism header', async () => {
    const usd = { instructedAmount: 250, instructedCurrency: 'USD' };
    const res = await create(sepaCreditTransfer({ amount: usd }));
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[CURRENCY, 'SCHEME_CURRENCY', 'CURR']]);
    const viaHeader = sepaCreditTransfer({ amount: usd, mechanism: 'BOOK' });
    const refused = await create(viaHeader, { 'used-mechanism': 'SEPA_INST' });
    assert.deepEqual(entries(json(refused)), [[CURRENCY, 'SCHEME_CURRENCY', 'CURR']]);
  });

  test('SEPA to a non-SEPA IBAN or to a non-IBAN account is refused (AC01)', async () => {
    const turkish = await create(sepaCreditTransfer({ payeeIban: 'TR330006100519786457841326' }));
    assert.deepEqual(entries(json(turkish)), [
      ['/payeeAccountReference/paymentInstructionAccount/accountId', 'SCHEME_ACCOUNT', 'AC01'],
    ]);
    const local = sepaCreditTransfer();
    await holdAccount(h.db, 'alice', '0532013000');
    local['payerAccountReference'] = {
      paymentInstructionAccount: { accountId: '0532013000', numberType: 'BBAN' },
    };
    assert.deepEqual(entries(json(await create(local))), [
      ['/payerAccountReference/paymentInstructionAccount/accountId', 'SCHEME_ACCOUNT', 'AC01'],
    ]);
  });

  test('ACH and Fedwire need USD and the payee bank routing number (RC10)', async () => {
    const ach = usAchCredit({ currency: 'EUR' });
    delete ach['payeeBankReference'];
    const res = await create(ach);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)).sort(), [
      [ROUTING, 'ROUTING_NUMBER_REQUIRED', 'RC10'],
      [CURRENCY, 'SCHEME_CURRENCY', 'CURR'],
    ]);
    const wire = fedwireTransfer({ currency: 'CAD' });
    assert.deepEqual(entries(json(await create(wire))), [[CURRENCY, 'SCHEME_CURRENCY', 'CURR']]);
  });

  test('a payer equal to the payee is refused (AG01), however the IBAN is written', async () => {
    const res = await create(sepaCreditTransfer({ payeeIban: 'de89 3704 0044 0532 0130 00' }));
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/payeeAccountReference/paymentInstructionAccount/accountId', 'SAME_ACCOUNT', 'AG01'],
    ]);
  });
});
