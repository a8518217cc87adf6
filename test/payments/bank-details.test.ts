import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { runMigrations } from '../../src/shared/db/migrations.js';
import { directoryMigrations } from '../../src/payments/directory/migrations.js';
import { generateSampleDirectory, loadSampleIfEmpty } from '../../src/payments/directory/sample.js';
import { responseErrors } from './directory/response-schema.js';
import { forEachStore, openHarness, json, BASE, type Harness } from './harness.js';

const KEY = 'bank-lookup-key-0123456789abcdef';
const sample = generateSampleDirectory();
const usBank = sample.fedach[0];
const de = sample.exampleIbans.find((e) => e.iban.startsWith('DE'));
const gbBranch = sample.exampleIbans.find((e) => e.iban.startsWith('GB') && !e.bic.endsWith('XXX'));

async function lookup(h: Harness, body: unknown, key: string | null = KEY) {
  const res = await h.app.inject({
    method: 'POST',
    url: `${BASE}/payments/fetch-bank-details`,
    headers: key === null ? {} : { 'api-key': key },
    payload: body as object,
  });
  if (res.statusCode === 200) {
    assert.deepEqual(responseErrors('BankDetails', res.json()), [], 'response matches BankDetails');
  }
  return res;
}

forEachStore('fetch-bank-details', (kind) => {
  let h: Harness;
  before(async () => {
    h = await openHarness(kind, { overrides: { bankLookup: { apiKeys: [KEY] } } });
    await runMigrations(h.db, 'bank-directory', directoryMigrations);
    await loadSampleIfEmpty(h.db);
  });
  after(async () => h.close());

  test('api-key missing, wrong, or of another length → 401 problem', async () => {
    const body = { identificationType: 'ROUTING_NUMBER', identificationNumber: '011000015' };
    const missing = await lookup(h, body, null);
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(json(missing)['code'], 'API_KEY_MISSING');
    const wrong = await lookup(h, body, `${KEY.slice(0, -1)}X`);
    assert.equal(wrong.statusCode, 401);
    assert.equal(json(wrong)['code'], 'API_KEY_INVALID');
    const short = await lookup(h, body, 'x');
    assert.equal(json(short)['code'], 'API_KEY_INVALID');
    assert.ok(!h.logs.text.includes(KEY), 'the api key never reaches the logs');
  });

  test('ROUTING_NUMBER: found merges FedACH, Fedwire and CSV; district from the prefix', async () => {
    assert.ok(usBank);
    const res = await lookup(h, {
      identificationType: 'ROUTING_NUMBER',
      identificationNumber: usBank.routingNumber,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.equal(body['identification'], usBank.routingNumber);
    assert.deepEqual(body['transferSupportType'], ['WIRE', 'ACH']);
    assert.equal(body['federalReserveDistrict'], '01 Boston');
    assert.equal(body['status'], 'ACTIVE');
    assert.match(String(body['bic']), /^[A-Z]{4}US[A-Z0-9]{2}$/);
    const address = body['address'] as Record<string, unknown>;
    assert.equal(address['townName'], 'BOSTON');
    assert.match(String(address['phoneNumber']), /^\(\d{3}\) \d{3}-\d{4}$/);
  });

  test('ROUTING_NUMBER: unknown → 404, bad checksum / length → 400 naming the reason', async () => {
    const unknown = await lookup(h, {
      identificationType: 'ROUTING_NUMBER',
      identificationNumber: '011000015',
    });
    assert.equal(unknown.statusCode, 404);
    assert.equal(json(unknown)['code'], 'BANK_NOT_FOUND');
    const checksum = await lookup(h, {
      identificationType: 'ROUTING_NUMBER',
      identificationNumber: '011000016',
    });
    assert.equal(checksum.statusCode, 400);
    assert.equal(json(checksum)['code'], 'IDENTIFICATION_INVALID');
    assert.equal(json(checksum)['detail'], 'checksum digit does not match');
    const length = await lookup(h, {
      identificationType: 'ROUTING_NUMBER',
      identificationNumber: '0110000',
    });
    assert.equal(length.statusCode, 400);
    assert.deepEqual((json(length)['errors'] as unknown[])[0], {
      pointer: '/identificationNumber',
      code: 'BAD_LENGTH',
      message: 'a routing number has 9 digits, not 7',
    });
  });

  test('SWIFT_CODE: 8 characters finds the head office, unknown → 404, bad country → 400', async () => {
    assert.ok(de);
    const res = await lookup(h, {
      identificationType: 'SWIFT_CODE',
      identificationNumber: de.bic.slice(0, 8),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res)['bic'], de.bic.slice(0, 8));
    assert.equal((json(res)['address'] as Record<string, unknown>)['country'], 'DE');
    const unknown = await lookup(h, {
      identificationType: 'SWIFT_CODE',
      identificationNumber: 'ZZZZDEFF',
    });
    assert.equal(unknown.statusCode, 404);
    const badCountry = await lookup(h, {
      identificationType: 'SWIFT_CODE',
      identificationNumber: 'ZZZZQQFF',
    });
    assert.equal(badCountry.statusCode, 400);
    assert.equal((json(badCountry)['errors'] as { code: string }[])[0]?.code, 'BAD_COUNTRY');
    const badLength = await lookup(h, {
      identificationType: 'SWIFT_CODE',
      identificationNumber: 'ZZZZDEFF1',
    });
    assert.equal((json(badLength)['errors'] as { code: string }[])[0]?.code, 'BAD_LENGTH');
  });

  test('IBAN: bank and branch (sort code) extracted and looked up', async () => {
    assert.ok(gbBranch);
    const res = await lookup(h, {
      identificationType: 'IBAN',
      identificationNumber: gbBranch.iban,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.equal(body['bic'], gbBranch.bic);
    assert.equal(
      body['sortCode'],
      gbBranch.iban.slice(8, 14).replace(/(\d\d)(\d\d)(\d\d)/, '$1-$2-$3'),
    );
    const bad = await lookup(h, {
      identificationType: 'IBAN',
      identificationNumber: `${gbBranch.iban.slice(0, 2)}00${gbBranch.iban.slice(4)}`,
    });
    assert.equal(bad.statusCode, 400);
    assert.equal((json(bad)['errors'] as { code: string }[])[0]?.code, 'BAD_CHECKSUM');
    const unknown = await lookup(h, {
      identificationType: 'IBAN',
      identificationNumber: 'DE89370400440532013000',
    });
    assert.equal(unknown.statusCode, 404);
    const country = await lookup(h, {
      identificationType: 'IBAN',
      identificationNumber: 'QQ89370400440532013000',
    });
    assert.equal((json(country)['errors'] as { code: string }[])[0]?.code, 'BAD_COUNTRY');
  });

  test('BBAN needs a country; BANK_BRANCH_CODE and OTHERS search every code', async () => {
    assert.ok(de);
    const bban = de.iban.slice(4);
    const ok = await lookup(h, {
      identificationType: 'BBAN',
      identificationNumber: bban,
      country: 'DE',
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(json(ok)['bankCode'], bban.slice(0, 8));
    const noCountry = await lookup(h, { identificationType: 'BBAN', identificationNumber: bban });
    assert.equal(noCountry.statusCode, 400);
    assert.equal((json(noCountry)['errors'] as { pointer: string }[])[0]?.pointer, '/country');
    const code = await lookup(h, {
      identificationType: 'BANK_BRANCH_CODE',
      identificationNumber: bban.slice(0, 8),
      country: 'DE',
    });
    assert.equal(code.statusCode, 200);
    assert.equal(json(code)['bic'], de.bic.slice(0, 8));
    const others = await lookup(h, {
      identificationType: 'OTHERS',
      identificationNumber: 'NOPE',
      bankName: String(json(ok)['bankName']),
    });
    assert.equal(others.statusCode, 200);
    assert.equal(json(others)['bankCode'], bban.slice(0, 8));
  });

  test('bankName (Jaro-Winkler), country and branchCode narrow or confirm the match', async () => {
    assert.ok(usBank);
    const req = {
      identificationType: 'ROUTING_NUMBER',
      identificationNumber: usBank.routingNumber,
    };
    const close = await lookup(h, {
      ...req,
      bankName: usBank.customerName.toLowerCase().replace('bank', 'bnak'),
    });
    assert.equal(close.statusCode, 200);
    assert.ok(
      Number((json(close)['customFields'] as Record<string, unknown>)['nameMatchScore']) >= 0.85,
    );
    const far = await lookup(h, { ...req, bankName: 'Completely Different Institution' });
    assert.equal(far.statusCode, 404);
    assert.match(String(json(far)['detail']), /name does not match/);
    const wrongCountry = await lookup(h, { ...req, country: 'DE' });
    assert.equal(wrongCountry.statusCode, 400);
    assert.ok(gbBranch);
    const branch = await lookup(h, {
      identificationType: 'SWIFT_CODE',
      identificationNumber: gbBranch.bic.slice(0, 8),
      branchCode: gbBranch.iban.slice(8, 14),
    });
    assert.equal(branch.statusCode, 200);
    assert.equal(json(branch)['bic'], gbBranch.bic);
    const noBranch = await lookup(h, {
      identificationType: 'SWIFT_CODE',
      identificationNumber: gbBranch.bic.slice(0, 8),
      branchCode: '000000',
    });
    assert.equal(noBranch.statusCode, 404);
  });

  test('every identification type: unknown → 404, malformed → 400 with the reason code', async () => {
    assert.ok(de && gbBranch);
    const cases: [Record<string, string>, number, string?][] = [
      [
        { identificationType: 'IBAN', identificationNumber: de.iban.slice(0, -1) },
        400,
        'BAD_LENGTH',
      ],
      [
        { identificationType: 'BBAN', identificationNumber: '370400440532013000', country: 'DE' },
        404,
      ],
      [
        { identificationType: 'BBAN', identificationNumber: '3704004405320130', country: 'DE' },
        400,
        'BAD_LENGTH',
      ],
      [
        {
          identificationType: 'BBAN',
          identificationNumber: '20041010050500013M02607',
          country: 'FR',
        },
        400,
        'BAD_CHECKSUM',
      ],
      [
        { identificationType: 'BBAN', identificationNumber: '370400440532013000', country: 'US' },
        400,
        'BAD_COUNTRY',
      ],
      [
        { identificationType: 'BANK_BRANCH_CODE', identificationNumber: '99999999', country: 'DE' },
        404,
      ],
      [
        { identificationType: 'BANK_BRANCH_CODE', identificationNumber: 'ab*cd' },
        400,
        'BAD_CHARACTERS',
      ],
      [
        { identificationType: 'BANK_BRANCH_CODE', identificationNumber: '123', country: 'QQ' },
        400,
        'BAD_COUNTRY',
      ],
      [
        {
          identificationType: 'BANK_BRANCH_CODE',
          identificationNumber: gbBranch.iban.slice(8, 14),
        },
        200,
      ],
      [{ identificationType: 'OTHERS', identificationNumber: 'NOTHING1' }, 404],
      [{ identificationType: 'OTHERS', identificationNumber: gbBranch.bic }, 200],
      [{ identificationType: 'OTHERS', identificationNumber: '#' }, 400, 'BAD_CHARACTERS'],
    ];
    for (const [body, status, code] of cases) {
      const res = await lookup(h, body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)} → ${res.body}`);
      if (code) assert.equal((json(res)['errors'] as { code: string }[])[0]?.code, code);
    }
  });

  test('the response check itself rejects an invalid BankDetails', () => {
    assert.equal(responseErrors('BankDetails', { bic: 'not a bic', colour: 'blue' }).length, 2);
  });

  test('schema violations are 400 VALIDATION_FAILED (after the key check)', async () => {
    const res = await lookup(h, { identificationType: 'PHONE', identificationNumber: '1' });
    assert.equal(res.statusCode, 400);
    assert.equal(json(res)['code'], 'VALIDATION_FAILED');
  });
});

test('fetch-bank-details with no configured keys refuses every call', async () => {
  const h = await openHarness('sqlite');
  try {
    const res = await lookup(h, {
      identificationType: 'ROUTING_NUMBER',
      identificationNumber: '011000015',
    });
    assert.equal(res.statusCode, 401);
    assert.equal(json(res)['code'], 'API_KEY_INVALID');
  } finally {
    await h.close();
  }
});
