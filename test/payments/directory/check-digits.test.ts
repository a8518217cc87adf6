// Issue 26, go-live item 6: "German account numbers are checked with the check-digit method the
// Bundesbank file names for the bank code (the common methods at least; an unknown method is reported,
// never silently passed); GLEIF registration status (LAPSED, ANNULLED, RETIRED) is kept and shown; a
// directory entry's country comes from the record, not a default."
// Vectors: the test account numbers of the Bundesbank's method descriptions, and numbers computed by
// hand from those descriptions (weights from the right); the method 00 numbers are also valid Luhn
// numbers (the same algorithm), checked independently below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkGermanAccount,
  SUPPORTED_CHECK_METHODS,
} from '../../../src/payments/directory/check-digits.js';
import {
  parseBundesbank,
  decodeBundesbank,
} from '../../../src/payments/directory/importers/bundesbank.js';
import { parseFedwire } from '../../../src/payments/directory/importers/fedwire.js';
import { parseFedach } from '../../../src/payments/directory/importers/fedach.js';
import { parseGleif } from '../../../src/payments/directory/importers/gleif.js';
import { mergeEntries } from '../../../src/payments/directory/bank-details.js';

const fixture = (name: string) =>
  readFileSync(join(process.cwd(), 'test/fixtures/directory', name));

/** method → [valid account numbers]; each with its last digit changed must fail. */
const VALID: Record<string, string[]> = {
  // 123456789 → Σ(2,1,… cross sums) = 43 → 10 − 3 = 7
  '00': ['1234567897', '9876543217', '0001234566', '5101234580'],
  // weights 3,7,1 from the right: Σ = 141 → 10 − 1 = 9
  '01': ['1234567899', '9876543211', '0001234569', '5101234581'],
  '02': ['1234567897', '9876543216', '0001234560'],
  '03': ['1234567890', '9876543210', '0001234567', '5101234582'],
  '04': ['1234567892', '9876543211', '0001234560', '5101234586'],
  '05': ['1234567897', '9876543213', '0001234561', '5101234589'],
  // weights 2,3,4,5,6,7,2,3,4 from the right: Σ = 174, 174 mod 11 = 9 → 11 − 9 = 2
  '06': ['1234567892', '9876543211', '0001234560', '5101234586'],
  '07': ['9876543210', '0001234560', '5101234583'],
  '10': ['1234567890', '9876543210', '0001234560', '5101234583'],
  '08': ['0000060004', '1234567897'],
  // weights 2..10 from the right: Σ = 210, remainder 1 → check digit 9 (method 11's exception)
  '11': ['1234567899', '0000000108', '5101234583'],
  '20': ['1234567896', '9876543218'],
  '32': ['1234567897', '9876543219', '0001234560', '5101234587'],
  '33': ['1234567892', '9876543217', '0001234567', '5101234583'],
  '38': ['1234567899', '9876543217', '0001234562', '5101234589'],
};

function luhn(number: string): boolean {
  let sum = 0;
  [...number].reverse().forEach((c, i) => {
    let n = Number(c);
    if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  });
  return sum % 10 === 0;
}

test('item 6: each implemented method accepts its vectors and refuses a changed check digit', () => {
  for (const [method, numbers] of Object.entries(VALID)) {
    for (const number of numbers) {
      assert.deepEqual(
        checkGermanAccount(method, number),
        { kind: 'valid' },
        `${method} ${number}`,
      );
      const wrong = `${number.slice(0, 9)}${(Number(number[9]) + 1) % 10}`;
      assert.equal(checkGermanAccount(method, wrong).kind, 'invalid', `${method} ${wrong}`);
    }
  }
  for (const n of VALID['00'] ?? []) assert.ok(luhn(n), `${n} is a Luhn number`);
});

test('item 6: modulus-11 remainders: 1 gives check digit 0 (06) or makes the number invalid (02)', () => {
  // 510123458: Σ for 02 leaves remainder 1, so no account number with this prefix is valid under 02.
  for (let c = 0; c <= 9; c += 1) {
    assert.equal(checkGermanAccount('02', `510123458${c}`).kind, 'invalid');
  }
  // 07 with remainder 1 (123456789 prefix) likewise.
  for (let c = 0; c <= 9; c += 1) {
    assert.equal(checkGermanAccount('07', `123456789${c}`).kind, 'invalid');
  }
});

test('item 6: short numbers are padded to 10 digits; 88 and 13 variants', () => {
  assert.deepEqual(checkGermanAccount('00', '1234566'), { kind: 'valid' });
  // 88: position 3 = 9 weighs positions 3–9 with 2..8: 009123456 → Σ = 6·2+5·3+4·4+3·5+2·6+1·7+9·8 = 149,
  // 149 mod 11 = 6 → 5.
  assert.deepEqual(checkGermanAccount('88', '0091234565'), { kind: 'valid' });
  assert.equal(checkGermanAccount('88', '0091234566').kind, 'invalid');
  // 88 otherwise as 32.
  assert.deepEqual(checkGermanAccount('88', '1234567897'), { kind: 'valid' });
  // 13: positions 2–7 (weights 1,2,1,2,1,2 from the left, cross sums), check digit in position 8:
  // 0123456 → 1+4+3+8+5+(1+2) = 24 → 6; "0123456600" is valid, and so is "1234566" shifted left
  // by two places (sub-account number omitted).
  assert.deepEqual(checkGermanAccount('13', '0123456600'), { kind: 'valid' });
  assert.deepEqual(checkGermanAccount('13', '01234566'), { kind: 'valid' });
  assert.equal(checkGermanAccount('13', '0123456700').kind, 'invalid');
});

/**
 * The test account numbers ("Testkontonummern") the Bundesbank's method descriptions give, valid and
 * (where given) invalid; numbers shorter than 10 digits are padded on the left.
 */
const BUNDESBANK_TEST_NUMBERS: Record<string, { valid: string[]; invalid?: string[] }> = {
  '00': { valid: ['9290701', '539290858', '1501824', '1501832'] },
  '06': { valid: ['94012341', '5073321010'] },
  '10': { valid: ['12345008', '87654008'] },
  '17': { valid: ['0446786040'] },
  '19': { valid: ['0240334000', '0200520016'] },
  '26': { valid: ['0520309001', '1111118111', '0005501024'] },
  '28': { valid: ['19999000', '9130000201'] },
  '32': {
    valid: ['9141405', '1709107983', '0122116979', '0121114867', '9030101192', '9245500460'],
  },
  '33': { valid: ['48658', '84956'] },
  '34': { valid: ['9913000700', '9914001000'] },
  '38': { valid: ['191919', '1100660'] },
  // The worked examples of the description (10 digits; 9 digits by the first and the second variant).
  '63': { valid: ['0123456600', '0001234566'], invalid: ['1123456600'] },
  '68': { valid: ['8889654328', '987654324', '987654328', '400000000'], invalid: ['12345'] },
  '76': { valid: ['0006543200', '9012345600', '7876543100'] },
  '88': { valid: ['2525259', '1000500', '90013000', '92525253', '99913003'] },
  '91': {
    valid: [
      ...['2974118000', '5281741000', '9952810000'],
      ...['2974117000', '5281770000', '9952812000'],
      ...['8840019000', '8840050000', '8840087000', '8840045000'],
      ...['8840012000', '8840055000', '8840080000'],
    ],
    invalid: ['8840010000', '8840057000'],
  },
  A1: {
    valid: ['0010030005', '0010030997', '1010030054'],
    invalid: ['0110030005', '0010030998', '0000030005'],
  },
  A2: {
    valid: ['3456789019', '5678901231', '6789012348', '3456789012'],
    invalid: ['1234567890', '0123456789'],
  },
};

test("item 6: the Bundesbank's own test account numbers", () => {
  for (const [method, { valid, invalid = [] }] of Object.entries(BUNDESBANK_TEST_NUMBERS)) {
    for (const n of valid)
      assert.deepEqual(checkGermanAccount(method, n), { kind: 'valid' }, `${method} ${n}`);
    for (const n of invalid)
      assert.equal(checkGermanAccount(method, n).kind, 'invalid', `${method} ${n}`);
  }
});

test('item 6: methods 26, 28 and 34 (check digit in position 8) and 08 below 60 000', () => {
  // 28: 1234567 weighted 8,7,6,5,4,3,2 = 112, 112 mod 11 = 2 → 9
  assert.deepEqual(checkGermanAccount('28', '1234567900'), { kind: 'valid' });
  assert.equal(checkGermanAccount('28', '1234567800').kind, 'invalid');
  assert.deepEqual(checkGermanAccount('34', '1234567100'), { kind: 'valid' });
  assert.equal(checkGermanAccount('34', '1234567200').kind, 'invalid');
  assert.deepEqual(checkGermanAccount('26', '1234567400'), { kind: 'valid' });
  assert.deepEqual(checkGermanAccount('26', '0012345674'), { kind: 'valid' }, 'shifted two places');
  assert.equal(checkGermanAccount('26', '0012345675').kind, 'invalid');
  assert.deepEqual(
    checkGermanAccount('08', '59999'),
    { kind: 'valid' },
    'not checked below 60 000',
  );
  assert.equal(checkGermanAccount('08', '0000060005').kind, 'invalid');
});

test('item 6: 09 is no check; an unimplemented method is reported, never passed', () => {
  assert.deepEqual(checkGermanAccount('09', '1'), { kind: 'no-check' });
  assert.deepEqual(checkGermanAccount('B6', '1234567890'), { kind: 'unsupported', method: 'B6' });
  assert.ok(SUPPORTED_CHECK_METHODS.includes('06') && !SUPPORTED_CHECK_METHODS.includes('B6'));
  assert.equal(checkGermanAccount('00', '0000000000').kind, 'invalid');
});

test('item 6: the Bundesbank importer keeps the check-digit method and the deletion flag', () => {
  const parsed = parseBundesbank(decodeBundesbank(fixture('bundesbank-blz.txt')));
  assert.deepEqual(parsed.skipped, []);
  const methods = parsed.entries.map((e) => e.entry.checkMethod);
  assert.deepEqual(methods, ['09', '09', '06', '00', '00']);
  const musterkasse = parsed.entries[3]?.entry;
  assert.equal(musterkasse?.deletionAnnounced, true);
  const details = mergeEntries(musterkasse ? [musterkasse] : []);
  assert.equal(details.customFields?.checkDigitMethod, '00');
  assert.equal(details.customFields?.deletionAnnounced, true);
});

test('item 6: GLEIF registration status is kept and shown; ANNULLED/RETIRED make the record INACTIVE', () => {
  const parsed = parseGleif(
    fixture('gleif-bic-lei.csv').toString('utf8'),
    fixture('gleif-lei-records.csv').toString('utf8'),
  );
  const byLei = new Map(parsed.entries.map((e) => [e.entry.lei, e.entry]));
  const lapsed = byLei.get('5299000EXAMPLEBK0294');
  assert.equal(lapsed?.registrationStatus, 'LAPSED');
  assert.equal(lapsed.status, 'ACTIVE', 'a lapsed LEI still identifies a live entity');
  assert.equal(mergeEntries([lapsed]).customFields?.leiRegistrationStatus, 'LAPSED');
  // The same records with the Musterkasse LEI annulled.
  const records = fixture('gleif-lei-records.csv')
    .toString('utf8')
    .replace('60311,ACTIVE,ISSUED', '60311,ACTIVE,ANNULLED');
  const annulled = parseGleif(fixture('gleif-bic-lei.csv').toString('utf8'), records).entries.find(
    (e) => e.entry.lei === '549300MUSTERKASSE084',
  )?.entry;
  assert.equal(annulled?.registrationStatus, 'ANNULLED');
  assert.equal(annulled.status, 'INACTIVE');
  assert.equal(byLei.get('5299000EXAMPLEBK0197')?.registrationStatus, 'ISSUED');
});

test('item 6: a foreign Fed participant (blank state) is not answered as US', () => {
  const wire = parseFedwire(fixture('fedwire-edge-cases.txt').toString('utf8'));
  const mx = wire.entries.find((e) => e.entry.routingNumber === '071040015')?.entry;
  assert.equal(mx?.country, 'ZZ');
  assert.equal(mergeEntries(mx ? [mx] : []).address?.country, 'ZZ');
  const ach = parseFedach(fixture('fedach-edge-cases.txt').toString('utf8'));
  assert.equal(ach.entries.find((e) => e.entry.routingNumber === '071040015')?.entry.country, 'ZZ');
  const us = wire.entries.find((e) => e.entry.routingNumber === '011000028')?.entry;
  assert.equal(us?.country, 'US');
});

test('docs/bank-directory.md lists exactly the implemented check-digit methods', () => {
  const doc = readFileSync(join(process.cwd(), 'docs', 'bank-directory.md'), 'utf8');
  const paragraph = /Implemented \((\d+)\):([\s\S]*?) — each tested/.exec(doc);
  assert.ok(paragraph, 'the "Implemented (n):" list');
  const listed = [...(paragraph[2] ?? '').matchAll(/`([0-9A-E][0-9])`/g)].map((m) => m[1]);
  assert.deepEqual(listed, [...SUPPORTED_CHECK_METHODS]);
  assert.equal(Number(paragraph[1]), SUPPORTED_CHECK_METHODS.length);
});
