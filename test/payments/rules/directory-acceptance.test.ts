// Issue 26, go-live item 2: "The bank directory is consulted at acceptance. A Fedwire to a FedACH-only
// routing number, a settlement-only participant, a renumbered routing number, an unknown or deleted
// German bank code, a BIC whose country differs from the IBAN's: each refused (or warned, per
// configuration) with its reason code, the directory entry named." Item 6: German account numbers
// checked with the bank code's check-digit method; an unknown method reported; LEI status considered.
// Through the HTTP API, with the directory fixtures (test/fixtures/directory) imported into the
// payment service's database.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeIBAN } from 'ibantools';
import {
  forEachStore,
  holdSampleAccounts,
  json,
  openHarness,
  send,
  type Harness,
  type StoreKind,
} from '../harness.js';
import { NOW, fedwireTransfer, sepaCreditTransfer, usAchCredit } from './fixtures.js';
import { importDirectory } from '../../../src/payments/directory/import.js';
import {
  formatFedachRecord,
  parseFedach,
} from '../../../src/payments/directory/importers/fedach.js';
import { parseFedwire } from '../../../src/payments/directory/importers/fedwire.js';
import {
  decodeBundesbank,
  parseBundesbank,
} from '../../../src/payments/directory/importers/bundesbank.js';
import { parseGleif } from '../../../src/payments/directory/importers/gleif.js';
import type { Database } from '../../../src/shared/db/types.js';

type Json = Record<string, unknown>;
type Entry = { pointer: string; code: string; reason: string; message: string };
const errors = (body: Json) => (body['errors'] ?? []) as Entry[];
const reasonsOf = (body: Json) =>
  ((body['paymentInstructionReference'] as Json | undefined)?.['statusReasons'] ?? []) as Entry[];

const ROUTING = '/payeeBankReference/involvedParty/organisationIdentification/identificationNo';
const PAYEE = '/payeeAccountReference/paymentInstructionAccount/accountId';
const fixture = (name: string) =>
  readFileSync(join(process.cwd(), 'test/fixtures/directory', name));

/** A routing number with a valid ABA check digit (weights 3, 7, 1). */
function aba(prefix8: string): string {
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...prefix8].reduce((s, d, i) => s + Number(d) * (w[i] ?? 0), 0);
  return `${prefix8}${(10 - (sum % 10)) % 10}`;
}

const ACH_ONLY = aba('01100040'); // listed in FedACH, not in Fedwire
const RENUMBERED = aba('01100050'); // FedACH record type 2
const NEW_NUMBER = aba('01100060');
const SETTLEMENT_ONLY = '021002100'; // Fedwire fixture: funds Y, settlement-only S
const SECURITIES_ONLY = '021002090'; // Fedwire fixture: funds N, securities Y

const achRecord = (routingNumber: string, name: string, renumberedTo?: string) =>
  formatFedachRecord({
    routingNumber,
    officeCode: 'O',
    servicingFrb: '011000015',
    recordType: renumberedTo ? '2' : '1',
    changeDate: '031526',
    ...(renumberedTo ? { newRoutingNumber: renumberedTo } : {}),
    customerName: name,
    address: '1 MAIN STREET',
    city: 'BOSTON',
    state: 'MA',
    zip: '02110',
    phone: '6175550100',
    statusCode: '1',
  });

/** The Bundesbank fixture plus a bank code whose check-digit method (B6) is not implemented. */
function bundesbankText(): string {
  const text = decodeBundesbank(fixture('bundesbank-blz.txt'));
  const line = text.split('\n')[2] ?? ''; // 37040050, method 06
  const b6 = `70010080${line.slice(8, 150)}B6000006${line.slice(158)}`;
  return `${text.trimEnd()}\n${b6}\n`;
}

const deIban = (bankCode: string, account: string) =>
  composeIBAN({ countryCode: 'DE', bban: `${bankCode}${account}` }) ?? '';

async function loadDirectory(db: Database): Promise<void> {
  const ach = `${fixture('fedach-edge-cases.txt').toString('utf8').trimEnd()}\n${achRecord(
    ACH_ONLY,
    'ACH ONLY SAVINGS BANK',
  )}\n${achRecord(RENUMBERED, 'MERGED AWAY BANK', NEW_NUMBER)}\n${achRecord(NEW_NUMBER, 'SURVIVING BANK')}\n`;
  await importDirectory(db, parseFedach(ach), { source: 'fedach', origin: 'test' });
  await importDirectory(db, parseFedwire(fixture('fedwire-edge-cases.txt').toString('utf8')), {
    source: 'fedwire',
    origin: 'test',
  });
  await importDirectory(db, parseBundesbank(bundesbankText()), {
    source: 'bundesbank',
    origin: 'test',
  });
  await importDirectory(
    db,
    parseGleif(
      fixture('gleif-bic-lei.csv').toString('utf8'),
      fixture('gleif-lei-records.csv').toString('utf8'),
    ),
    { source: 'gleif', origin: 'test' },
  );
}

/** A SEPA transfer to a German account (bank code, account number), optionally naming the payee bank. */
function sepaTo(bankCode: string, account: string, extra: Json = {}): Json {
  return { ...sepaCreditTransfer({ payeeIban: deIban(bankCode, account) }), ...extra };
}

function suite(kind: StoreKind, overrides?: Record<string, unknown>) {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { now: () => NOW, ...(overrides ? { overrides } : {}) });
    await holdSampleAccounts(h.db, 'alice');
    await loadDirectory(h.db);
  });
  after(async () => h.close());
  return {
    create: (record: Json) => send(h, 'alice', 'POST', 'payments', record),
    validate: (record: Json) => send(h, undefined, 'POST', 'payments/validate', record),
  };
}

forEachStore('bank directory at acceptance (issue 26, items 2 and 6)', (kind) => {
  const api = suite(kind);

  test('a Fedwire to a FedACH-only routing number is refused (RC10), the FedACH entry named', async () => {
    const res = await api.create(fedwireTransfer({ payeeRouting: ACH_ONLY }));
    assert.equal(res.statusCode, 422, res.body);
    const [e, ...rest] = errors(json(res));
    assert.deepEqual(rest, []);
    assert.deepEqual(
      [e?.pointer, e?.code, e?.reason],
      [ROUTING, 'ROUTING_NUMBER_NOT_ON_RAIL', 'RC10'],
    );
    assert.match(e?.message ?? '', new RegExp(`${ACH_ONLY} is not a Fedwire participant`));
    assert.match(e?.message ?? '', /ACH ONLY SAVINGS BANK, BOSTON MA; FedACH record/);
    // The same number by ACH is fine.
    assert.equal((await api.create(usAchCredit({ payeeRouting: ACH_ONLY }))).statusCode, 201);
  });

  test('a Fedwire to a settlement-only or a securities-only participant is refused (RC10)', async () => {
    const settle = await api.create(fedwireTransfer({ payeeRouting: SETTLEMENT_ONLY }));
    assert.equal(settle.statusCode, 422, settle.body);
    const [s] = errors(json(settle));
    assert.deepEqual([s?.code, s?.reason], ['ROUTING_NUMBER_SETTLEMENT_ONLY', 'RC10']);
    assert.match(s?.message ?? '', /EXAMPLE SETTLEMENT SERVICES LLC, NEW YORK NY; Fedwire record/);
    const securities = await api.create(fedwireTransfer({ payeeRouting: SECURITIES_ONLY }));
    assert.equal(securities.statusCode, 422, securities.body);
    assert.match(errors(json(securities))[0]?.message ?? '', /book-entry securities only/);
  });

  test('a renumbered routing number is refused with the new number the FedACH file names', async () => {
    const res = await api.create(usAchCredit({ payeeRouting: RENUMBERED }));
    assert.equal(res.statusCode, 422, res.body);
    const [e] = errors(json(res));
    assert.deepEqual([e?.code, e?.reason], ['ROUTING_NUMBER_RENUMBERED', 'RC10']);
    assert.match(
      e?.message ?? '',
      new RegExp(`MERGED AWAY BANK.*new routing number ${NEW_NUMBER}`),
    );
  });

  test('a routing number in no Fed file is refused once the Fed files are imported', async () => {
    const res = await api.create(fedwireTransfer({ payeeRouting: '021000021' }));
    assert.equal(res.statusCode, 422, res.body);
    assert.deepEqual(
      errors(json(res)).map((e) => [e.code, e.reason]),
      [['ROUTING_NUMBER_UNKNOWN', 'RC10']],
    );
    assert.equal(
      (await api.create(fedwireTransfer({ payeeRouting: '011000028' }))).statusCode,
      201,
    );
  });

  test('an unknown German bank code is refused (RC01)', async () => {
    const res = await api.create(sepaCreditTransfer()); // payee bank code 12030000: not in the file
    assert.equal(res.statusCode, 422, res.body);
    const [e] = errors(json(res));
    assert.deepEqual([e?.pointer, e?.code, e?.reason], [PAYEE, 'BANK_CODE_UNKNOWN', 'RC01']);
    assert.match(e?.message ?? '', /bank code 12030000 .* not in the Bundesbank bank code file/);
  });

  test('a deleted German bank code is refused, the record and its successor named', async () => {
    const res = await api.create(sepaTo('50070099', '1234567897'));
    assert.equal(res.statusCode, 422, res.body);
    const [e] = errors(json(res));
    assert.deepEqual([e?.code, e?.reason], ['BANK_CODE_DELETED', 'RC01']);
    assert.match(
      e?.message ?? '',
      /Alte Mainbank.*Bundesbank record 000005.*successor bank code is 50070080/,
    );
  });

  test('a bank code announced for deletion is accepted with a warning naming the successor', async () => {
    const res = await api.create(sepaTo('50070080', '1234567897')); // method 00, deletion flag 1
    assert.equal(res.statusCode, 201, res.body);
    const [w, ...rest] = reasonsOf(json(res));
    assert.deepEqual(rest, []);
    assert.deepEqual([w?.code, w?.reason], ['BANK_CODE_DELETION_ANNOUNCED', 'RC01']);
    assert.match(
      w?.message ?? '',
      /Musterkasse Frankfurt am Main.*successor bank code is 37040050/,
    );
  });

  test('the account number is checked with the bank code method (06): wrong check digit → AC01', async () => {
    assert.equal((await api.create(sepaTo('37040050', '1234567892'))).statusCode, 201);
    const res = await api.create(sepaTo('37040050', '1234567893'));
    assert.equal(res.statusCode, 422, res.body);
    const [e] = errors(json(res));
    assert.deepEqual([e?.pointer, e?.code, e?.reason], [PAYEE, 'ACCOUNT_CHECK_DIGITS', 'AC01']);
    assert.match(e?.message ?? '', /fails check-digit method 06 of bank code 37040050/);
    // Method 09 (no check) accepts any account number.
    assert.equal((await api.create(sepaTo('10020030', '1234567893'))).statusCode, 201);
  });

  test('an unimplemented method is reported as a warning naming it, never silently passed', async () => {
    const res = await api.create(sepaTo('70010080', '1234567890'));
    assert.equal(res.statusCode, 201, res.body);
    const [w, ...rest] = reasonsOf(json(res));
    assert.deepEqual(rest, []);
    assert.deepEqual([w?.code, w?.reason], ['CHECK_METHOD_UNSUPPORTED', 'AC01']);
    assert.match(w?.message ?? '', /method B6 .* not implemented/);
  });

  test("a payee bank BIC of another country than the IBAN's is refused", async () => {
    const bank = {
      payeeBankReference: {
        involvedParty: {
          partyName: 'BNP Paribas',
          partyType: 'ORGANISATION',
          organisationIdentification: { type: 'BICFI', identificationNo: 'BNPAFRPP' },
        },
      },
    };
    const res = await api.create(sepaTo('37040050', '1234567892', bank));
    assert.equal(res.statusCode, 422, res.body);
    const [e] = errors(json(res));
    assert.deepEqual([e?.pointer, e?.code, e?.reason], [ROUTING, 'BIC_COUNTRY_MISMATCH', 'RC01']);
    assert.match(e?.message ?? '', /BNPAFRPP is from FR, the payee IBAN from DE/);
  });

  test('a party with a LAPSED LEI is accepted with a warning; validatePayment says the same', async () => {
    const record = sepaTo('37040050', '1234567892');
    const payee = (record['payeeReference'] as Json)['involvedParty'] as Json;
    payee['organisationIdentification'] = { type: 'LEI', identificationNo: '5299000EXAMPLEBK0294' };
    const res = await api.create(record);
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      reasonsOf(json(res)).map((w) => [w.pointer, w.code]),
      [['/payeeReference/involvedParty/organisationIdentification/identificationNo', 'LEI_LAPSED']],
    );
    const checked = json(await api.validate(record));
    const ref = checked['paymentInstructionReference'] as Json;
    // Anonymous: not refused, but no payer whose account and funds could be checked, so no status
    // (issue 26, item 1: an anonymous validatePayment never answers as if the payment were accepted).
    assert.deepEqual([ref['status'], ref['reason']], [null, 'ACTC']);
    assert.equal(reasonsOf(checked)[0]?.code, 'LEI_LAPSED');
  });

  test('validatePayment reports a directory refusal as FAILED with its reason code', async () => {
    const body = json(await api.validate(fedwireTransfer({ payeeRouting: ACH_ONLY })));
    const ref = body['paymentInstructionReference'] as Json;
    assert.deepEqual([ref['status'], ref['reason']], ['FAILED', 'RC10']);
    assert.equal(reasonsOf(body)[0]?.code, 'ROUTING_NUMBER_NOT_ON_RAIL');
  });
});

describe('directory checks set to warn or off (payments.directory.acceptance)', () => {
  const api = suite('sqlite', {
    directory: { acceptance: { settlementOnly: 'warn', bankCodeUnknown: 'off' } },
  });

  test('warn: the order is accepted and the problem listed in statusReasons', async () => {
    const res = await api.create(fedwireTransfer({ payeeRouting: SETTLEMENT_ONLY }));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      reasonsOf(json(res)).map((w) => [w.code, w.reason]),
      [['ROUTING_NUMBER_SETTLEMENT_ONLY', 'RC10']],
    );
  });

  test('off: not reported at all', async () => {
    const res = await api.create(sepaCreditTransfer());
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(reasonsOf(json(res)), []);
  });
});
