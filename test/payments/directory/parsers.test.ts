import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  abaCheckDigit,
  formatDistrict,
  parseRoutingNumber,
} from '../../../src/payments/directory/routing-number.js';
import { parseBic } from '../../../src/payments/directory/bic.js';
import { parseBban, parseIban } from '../../../src/payments/directory/iban.js';
import {
  jaro,
  jaroWinkler,
  nameSimilarity,
  normaliseName,
} from '../../../src/payments/directory/jaro-winkler.js';

test('routing number: valid checksum and prefix give the Federal Reserve district', () => {
  const p = parseRoutingNumber('011000015');
  assert.ok(p.ok);
  assert.equal(p.value.district, 1);
  assert.equal(formatDistrict(p.value.district), '01 Boston');
  const thrift = parseRoutingNumber(`32100000${abaCheckDigit('32100000')}`);
  assert.ok(thrift.ok);
  assert.equal(thrift.value.district, 12);
  const electronic = parseRoutingNumber(`62100000${abaCheckDigit('62100000')}`);
  assert.ok(electronic.ok);
  assert.equal(electronic.value.district, 2);
  const government = parseRoutingNumber(`00000051${abaCheckDigit('00000051')}`);
  assert.ok(government.ok);
  assert.equal(government.value.district, undefined);
});

test('routing number: malformed inputs name the reason', () => {
  const checksum = parseRoutingNumber('011000016');
  assert.ok(!checksum.ok);
  assert.equal(checksum.code, 'BAD_CHECKSUM');
  assert.equal(checksum.reason, 'checksum digit does not match');
  const length = parseRoutingNumber('01100001');
  assert.ok(!length.ok);
  assert.equal(length.code, 'BAD_LENGTH');
  const letters = parseRoutingNumber('01100001A');
  assert.ok(!letters.ok);
  assert.equal(letters.code, 'BAD_CHARACTERS');
  const prefix = parseRoutingNumber(`15000000${abaCheckDigit('15000000')}`);
  assert.ok(!prefix.ok);
  assert.equal(prefix.code, 'BAD_PREFIX');
});

test('BIC: 8 characters is the head office, 11 names a branch', () => {
  const head = parseBic('deutdeff');
  assert.ok(head.ok);
  assert.equal(head.value.bic11, 'DEUTDEFFXXX');
  assert.equal(head.value.branch, undefined);
  assert.equal(head.value.country, 'DE');
  const branch = parseBic('DEUTDEFF500');
  assert.ok(branch.ok);
  assert.equal(branch.value.branch, '500');
  const xxx = parseBic('DEUTDEFFXXX');
  assert.ok(xxx.ok);
  assert.equal(xxx.value.branch, undefined);
});

test('BIC: bad length, characters, format and country', () => {
  const cases: [string, string][] = [
    ['DEUTDEF', 'BAD_LENGTH'],
    ['DEUTDEFF5', 'BAD_LENGTH'],
    ['DEUT-EFF', 'BAD_CHARACTERS'],
    ['DEU1DEFF', 'BAD_FORMAT'],
    ['DEUTQQFF', 'BAD_COUNTRY'],
  ];
  for (const [input, code] of cases) {
    const p = parseBic(input);
    assert.ok(!p.ok, input);
    assert.equal(p.code, code, input);
  }
});

test('IBAN: check digits verified and bank / branch codes extracted per country', () => {
  const de = parseIban('DE89 3704 0044 0532 0130 00');
  assert.ok(de.ok);
  assert.deepEqual(
    { country: de.value.country, bank: de.value.bankCode, branch: de.value.branchCode },
    { country: 'DE', bank: '37040044', branch: undefined },
  );
  const gb = parseIban('GB29NWBK60161331926819');
  assert.ok(gb.ok);
  assert.equal(gb.value.bankCode, 'NWBK');
  assert.equal(gb.value.branchCode, '601613');
  const fr = parseIban('FR1420041010050500013M02606');
  assert.ok(fr.ok);
  assert.equal(fr.value.bankCode, '20041');
  assert.equal(fr.value.branchCode, '01005');
});

test('IBAN: bad checksum, bad length, bad country, bad characters', () => {
  const checksum = parseIban('DE88370400440532013000');
  assert.ok(!checksum.ok);
  assert.equal(checksum.code, 'BAD_CHECKSUM');
  const length = parseIban('DE8937040044053201300');
  assert.ok(!length.ok);
  assert.equal(length.code, 'BAD_LENGTH');
  assert.match(length.reason, /22 characters, not 21/);
  const country = parseIban('QQ89370400440532013000');
  assert.ok(!country.ok);
  assert.equal(country.code, 'BAD_COUNTRY');
  const chars = parseIban('DE89*70400440532013000');
  assert.ok(!chars.ok);
  assert.equal(chars.code, 'BAD_CHARACTERS');
});

test('BBAN: needs its country, checks the national format and extracts the bank code', () => {
  const ok = parseBban('370400440532013000', 'DE');
  assert.ok(ok.ok);
  assert.equal(ok.value.bankCode, '37040044');
  const noCountry = parseBban('370400440532013000', undefined);
  assert.ok(!noCountry.ok);
  assert.equal(noCountry.code, 'BAD_COUNTRY');
  const length = parseBban('37040044053201300', 'DE');
  assert.ok(!length.ok);
  assert.equal(length.code, 'BAD_LENGTH');
  const format = parseBban('37040044053201300X', 'DE');
  assert.ok(!format.ok);
  assert.equal(format.code, 'BAD_FORMAT');
  // French RIB key (last two digits) is a national check digit.
  const rib = parseBban('20041010050500013M02607', 'FR');
  assert.ok(!rib.ok);
  assert.equal(rib.code, 'BAD_CHECKSUM');
});

test('Jaro-Winkler: textbook values and normalised bank names', () => {
  assert.equal(Math.round(jaro('MARTHA', 'MARHTA') * 1000) / 1000, 0.944);
  assert.equal(Math.round(jaroWinkler('MARTHA', 'MARHTA') * 1000) / 1000, 0.961);
  assert.equal(Math.round(jaroWinkler('DIXON', 'DICKSONX') * 1000) / 1000, 0.813);
  assert.equal(jaroWinkler('', 'ABC'), 0);
  assert.equal(jaroWinkler('SAME', 'SAME'), 1);
  assert.equal(normaliseName('Bank of Harbor, N.A.'), 'BANK OF HARBOR');
  assert.equal(normaliseName('Crédit Agricole S.A.'), 'CREDIT AGRICOLE');
  assert.ok(nameSimilarity('Harbor Bank & Trust', 'HARBOR BANK AND TRUST CO') > 0.95);
  assert.ok(nameSimilarity('Harbor Bank', 'Granite Savings') < 0.85);
});
