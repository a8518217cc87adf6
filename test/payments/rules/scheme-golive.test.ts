// Issue 26, go-live items 3 "SEPA scheme rules" and 8 (ACH limits), through createPayment: each refusal
// with its ISO 20022 reason code and JSON pointer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  forEachStore,
  holdAccount,
  holdSampleAccounts,
  json,
  openHarness,
  send,
  US_PAYER,
  type Harness,
} from '../harness.js';
import { NOW, sepaCreditTransfer, usAchCredit } from './fixtures.js';

type Json = Record<string, unknown>;
type Entry = { pointer: string; code: string; reason: string; message: string };
const entries = (body: Json) =>
  ((body['errors'] ?? []) as Entry[]).map((e) => [e.pointer, e.code, e.reason]);
const instructionOf = (o: Json) => o['paymentInstruction'] as Json;
const configOf = (o: Json) => o['paymentProcessingConfiguration'] as Json;
const payeeOf = (o: Json) => (o['payeeReference'] as Json)['involvedParty'] as Json;
const PAYEE_NAME = '/payeeReference/involvedParty/partyName';
const PAYEE_ACCOUNT = '/payeeAccountReference/paymentInstructionAccount/accountId';

forEachStore('SEPA scheme rules (issue 26, item 3)', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdSampleAccounts(h.db, 'alice');
  });
  after(async () => h.close());
  const create = (body: Json, headers: Record<string, string> = {}) =>
    send(h, 'alice', 'POST', 'payments', body, headers);

  test('charge bearer SLEV only (CH16 at /paymentInstruction/chargeBearer); absent is SLEV', async () => {
    const shared = sepaCreditTransfer({ instruction: { chargeBearer: 'SHAR' } });
    const res = await create(shared);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/paymentInstruction/chargeBearer', 'SEPA_CHARGE_BEARER', 'CH16'],
    ]);
    const viaHeader = sepaCreditTransfer({
      mechanism: 'BOOK',
      instruction: { chargeBearer: 'DEBT' },
    });
    const refused = await create(viaHeader, { 'used-mechanism': 'SCT_INST' });
    assert.deepEqual(entries(json(refused)), [
      ['/paymentInstruction/chargeBearer', 'SEPA_CHARGE_BEARER', 'CH16'],
    ]);
    const none = sepaCreditTransfer();
    delete instructionOf(none)['chargeBearer'];
    assert.equal((await create(none)).statusCode, 201);
  });

  test('a SEPA order with a DEBIT indicator and no creditor is refused (RR03, AC03), not taken for a direct debit', async () => {
    const debit = sepaCreditTransfer({ instruction: { creditDebtIndicator: 'DEBIT' } });
    delete debit['payeeReference'];
    delete debit['payeeAccountReference'];
    const res = await send(h, 'alice', 'POST', 'payments/validate', debit);
    const ref = json(res)['paymentInstructionReference'] as Json;
    assert.equal(ref['status'], 'FAILED');
    assert.deepEqual(
      (ref['statusReasons'] as Entry[]).map((e) => [e.pointer, e.code, e.reason]),
      [
        [PAYEE_NAME, 'CREDITOR_REQUIRED', 'RR03'],
        [PAYEE_ACCOUNT, 'CREDITOR_REQUIRED', 'AC03'],
      ],
    );
  });

  test('the creditor name is required for every credit transfer whatever creditDebtIndicator says', async () => {
    const order = sepaCreditTransfer({
      mechanism: 'SWIFT',
      instruction: { creditDebtIndicator: 'DEBIT' },
    });
    delete configOf(order)['localInstrument'];
    delete order['payeeReference'];
    const res = await create(order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[PAYEE_NAME, 'CREDITOR_REQUIRED', 'RR03']]);
  });

  test('names hold at most 70 characters under SEPA (CH16 at the party name)', async () => {
    const order = sepaCreditTransfer();
    payeeOf(order)['partyName'] = 'A'.repeat(71);
    const res = await create(order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[PAYEE_NAME, 'SEPA_NAME_TOO_LONG', 'CH16']]);
    payeeOf(order)['partyName'] = 'A'.repeat(70);
    assert.equal((await create(order)).statusCode, 201);
  });

  test('texts outside the SEPA character set are refused (RR10); letters with diacritics are accepted', async () => {
    const order = sepaCreditTransfer();
    payeeOf(order)['partyName'] = 'Smith & Co';
    configOf(order)['remittanceInfo'] = { type: 'UNSTRUCTURED', content: 'Invoice #42 €' };
    const res = await create(order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      [PAYEE_NAME, 'SEPA_CHARACTER_SET', 'RR10'],
      ['/paymentProcessingConfiguration/remittanceInfo/content', 'SEPA_CHARACTER_SET', 'RR10'],
    ]);
    assert.match((json(res)['errors'] as Entry[])[1]?.message ?? '', /"#" "€"/);
    const accented = sepaCreditTransfer();
    payeeOf(accented)['partyName'] = 'Jürgen Müller-Lüdenscheidt';
    assert.equal((await create(accented)).statusCode, 201);
  });

  test('a structured remittance is a creditor reference of at most 35 characters (RR09); end-to-end ids follow the EPC rules (CH16)', async () => {
    const order = sepaCreditTransfer();
    configOf(order)['remittanceInfo'] = { type: 'STRUCTURED', content: 'RF18' + '5'.repeat(32) };
    order['paymentInstructionReference'] = { etoeIdentification: 'INV//2026' };
    const res = await create(order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/paymentProcessingConfiguration/remittanceInfo/content', 'SEPA_REMITTANCE', 'RR09'],
      ['/paymentInstructionReference/etoeIdentification', 'SEPA_REFERENCE', 'CH16'],
    ]);
  });
});

forEachStore('ACH limits (issue 26, item 8)', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW });
    await holdAccount(h.db, 'acme', US_PAYER, { currency: 'USD', openingBalance: '9000000.00' });
  });
  after(async () => h.close());
  const create = (body: Json) => send(h, 'acme', 'POST', 'payments', body);

  test('same-day ACH above USD 1,000,000.00 is refused (AM02); standard ACH and exactly the cap are not', async () => {
    const sameDay = usAchCredit();
    instructionOf(sameDay)['priority'] = 'HIGH';
    instructionOf(sameDay)['amount'] = { instructedAmount: 1000000.01, instructedCurrency: 'USD' };
    const res = await create(sameDay);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/paymentInstruction/amount/instructedAmount', 'ACH_SAME_DAY_LIMIT', 'AM02'],
    ]);
    instructionOf(sameDay)['requestedMechanism'] = 'SAME_DAY_ACH';
    delete instructionOf(sameDay)['priority'];
    assert.deepEqual(entries(json(await create(sameDay))), [
      ['/paymentInstruction/amount/instructedAmount', 'ACH_SAME_DAY_LIMIT', 'AM02'],
    ]);
    const standard = usAchCredit();
    instructionOf(standard)['amount'] = { instructedAmount: 1000000.01, instructedCurrency: 'USD' };
    assert.equal((await create(standard)).statusCode, 201);
    instructionOf(sameDay)['amount'] = { instructedAmount: 1000000, instructedCurrency: 'USD' };
    assert.equal((await create(sameDay)).statusCode, 201);
  });

  test('an ACH account number over 17 characters is refused (AC03)', async () => {
    const order = usAchCredit();
    order['payeeAccountReference'] = {
      paymentInstructionAccount: { accountId: '123456789012345678', numberType: 'ACCOUNT_NUMBER' },
    };
    const res = await create(order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [[PAYEE_ACCOUNT, 'ACH_ACCOUNT_NUMBER', 'AC03']]);
  });

  test('a consumer SEC code (PPD) to a company is refused (AG03); CCD to it is accepted', async () => {
    const order = usAchCredit();
    payeeOf(order)['partyType'] = 'ORGANISATION';
    const res = await create(order);
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(entries(json(res)), [
      ['/paymentProcessingConfiguration/localInstrument', 'ACH_SEC_CODE', 'AG03'],
    ]);
    assert.match((json(res)['errors'] as Entry[])[0]?.message ?? '', /PPD is a consumer SEC code/);
    configOf(order)['localInstrument'] =
      'CASH_CONCENTRATION_OR_DISBURSEMENT_CORPORATE_COUNTERPARTY';
    assert.equal((await create(order)).statusCode, 201);
  });
});
