import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  FEDACH_RECORD_LENGTH,
  formatFedachRecord,
  parseFedach,
  type FedachRecord,
} from '../../../src/payments/directory/importers/fedach.js';
import {
  FEDWIRE_RECORD_LENGTH,
  formatFedwireRecord,
  parseFedwire,
  type FedwireRecord,
} from '../../../src/payments/directory/importers/fedwire.js';
import { formatBankCsv, parseBankCsv } from '../../../src/payments/directory/importers/csv.js';
import { importDirectory } from '../../../src/payments/directory/import.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { abaCheckDigit } from '../../../src/payments/directory/routing-number.js';
import { forEachDirectoryStore, openDirectoryDb, type DirectoryDb } from './db.js';

const rtn = (base8: string) => `${base8}${abaCheckDigit(base8)}`;

const achRecord = (routingNumber: string, name: string): FedachRecord => ({
  routingNumber,
  officeCode: 'O',
  servicingFrb: '011000015',
  recordType: '1',
  changeDate: '031525',
  customerName: name,
  address: '1 MAIN STREET',
  city: 'BOSTON',
  state: 'MA',
  zip: '02110',
  zipExtension: '1234',
  phone: '6175551234',
  statusCode: '1',
});

const wireRecord = (routingNumber: string, name: string): FedwireRecord => ({
  routingNumber,
  telegraphicName: name.slice(0, 18),
  customerName: name,
  state: 'MA',
  city: 'BOSTON',
  fundsTransfer: 'Y',
  settlementOnly: ' ',
  bookEntrySecurities: 'N',
  revisionDate: '20250315',
});

const A = rtn('01100001');
const B = rtn('02100002');
const C = rtn('21100003');

function fedachFile(records: string[]): string {
  return `${records.join('\n')}\n`;
}

test('FedACH records are 155 characters with the documented field positions', () => {
  const line = formatFedachRecord(achRecord(A, 'Harbor Bank'));
  assert.equal(line.length, FEDACH_RECORD_LENGTH);
  assert.equal(line.slice(0, 9), A);
  assert.equal(line.slice(35, 71).trim(), 'HARBOR BANK');
  assert.equal(line.slice(138, 148), '6175551234');
  const parsed = parseFedach(line);
  const entry = parsed.entries[0]?.entry;
  assert.equal(entry?.routingNumber, A);
  assert.equal(entry?.address.postalCode, '02110-1234');
  assert.equal(entry?.address.phoneNumber, '(617) 555-1234');
  assert.equal(entry?.changedOn, '2025-03-15');
  assert.deepEqual(entry?.transferTypes, ['ACH']);
});

test('Fedwire records are 101 characters with the documented field positions', () => {
  const line = formatFedwireRecord(wireRecord(A, 'Harbor Bank'));
  assert.equal(line.length, FEDWIRE_RECORD_LENGTH);
  const entry = parseFedwire(line).entries[0]?.entry;
  assert.equal(entry?.participantName, 'HARBOR BANK');
  assert.deepEqual(entry?.transferTypes, ['WIRE']);
  assert.deepEqual(entry?.services, ['FUNDS_TRANSFER']);
  assert.equal(entry?.changedOn, '2025-03-15');
});

test('malformed fixed-width records are skipped with their line and reason', () => {
  const good = formatFedachRecord(achRecord(A, 'Good Bank'));
  const badChecksum = formatFedachRecord(
    achRecord(`${A.slice(0, 8)}${(Number(A[8]) + 1) % 10}`, 'X'),
  );
  const short = good.slice(0, 150);
  const badOffice = `${good.slice(0, 9)}Z${good.slice(10)}`;
  const badDate = `${good.slice(0, 20)}133125${good.slice(26)}`;
  const parsed = parseFedach(fedachFile([good, badChecksum, short, '', badOffice, badDate]));
  assert.equal(parsed.entries.length, 1);
  assert.deepEqual(
    parsed.skipped.map((s) => s.line),
    [2, 3, 5, 6],
  );
  assert.match(parsed.skipped[0]?.reason ?? '', /checksum digit does not match/);
  assert.match(parsed.skipped[1]?.reason ?? '', /150 characters, expected 155/);
  assert.match(parsed.skipped[2]?.reason ?? '', /office code/);
  assert.match(parsed.skipped[3]?.reason ?? '', /change date/);
  const wire = formatFedwireRecord(wireRecord(A, 'Good Bank'));
  const badFunds = `${wire.slice(0, 90)}X${wire.slice(91)}`;
  const wireParsed = parseFedwire(`${wire}\r\n${badFunds}\r\n`);
  assert.equal(wireParsed.entries.length, 1);
  assert.deepEqual(wireParsed.skipped, [
    { line: 2, reason: 'funds transfer status "X" is not Y or N' },
  ]);
});

test('CSV and JSON share one record format and report bad rows', () => {
  const csv = formatBankCsv([
    { country: 'DE', bankName: 'Rhein Bank AG', bic: 'RHEIDEFF', bankCode: '37040044' },
    { country: 'GB', bankName: 'Thames, "The" Bank', bic: 'THAMGB2L', sortCode: '60-16-13' },
    { country: 'DE', bankName: 'Wrong Country', bic: 'RHEIFRPP' },
    { country: 'XX', bankName: 'Nowhere' },
    { country: 'DE', bankName: 'No Codes' },
    { country: 'DE', bankName: 'Long Town', bic: 'LONGDEFF', townName: 'x'.repeat(36) },
    { country: 'DE', bankName: 'Odd List', bic: 'ODDLDEFF', networks: 'SWIFT;not a code' },
  ]);
  const parsed = parseBankCsv(csv);
  assert.equal(parsed.entries.length, 2);
  assert.equal(parsed.entries[1]?.entry.bankName, 'Thames, "The" Bank');
  assert.equal(parsed.entries[1]?.entry.sortCode, '601613');
  assert.equal(parsed.entries[0]?.entry.bic, 'RHEIDEFFXXX');
  assert.deepEqual(
    parsed.skipped.map((s) => [s.line, s.reason.split(' ')[0]]),
    [
      [4, 'bic'],
      [5, 'country'],
      [6, 'needs'],
      [7, 'townName'],
      [8, 'networks:'],
    ],
  );
  const json = parseBankCsv(
    JSON.stringify([
      { country: 'NL', bankName: 'Amstel Bank', bic: 'AMSTNL2A', networks: ['SWIFT', 'SEPA'] },
      { country: 'NL', bankName: 'Bad', colour: 'blue' },
    ]),
  );
  assert.deepEqual(json.entries[0]?.entry.networks, ['SWIFT', 'SEPA']);
  assert.deepEqual(json.skipped, [{ line: 2, reason: 'unknown field colour' }]);
  const badHeader = parseBankCsv('country,bankName,colour\nDE,X,blue\n');
  assert.match(badHeader.skipped[0]?.reason ?? '', /unknown column/);
});

forEachDirectoryStore('directory import', (kind) => {
  let d: DirectoryDb;
  beforeEach(async () => {
    d = await openDirectoryDb(kind);
  });
  afterEach(async () => d.close());

  test('first import inserts, re-import upserts (updated vs unchanged), duplicates skipped', async () => {
    const first = parseFedach(
      fedachFile([
        formatFedachRecord(achRecord(A, 'Alpha Bank')),
        formatFedachRecord(achRecord(B, 'Beta Bank')),
        formatFedachRecord(achRecord(A, 'Alpha Again')),
      ]),
    );
    const s1 = await importDirectory(d.db, first, { source: 'fedach', origin: 'test' });
    assert.deepEqual([s1.imported, s1.updated, s1.unchanged], [2, 0, 0]);
    assert.deepEqual(s1.skipped, [{ line: 3, reason: `duplicate of line 1 (key ${A})` }]);

    const second = parseFedach(
      fedachFile([
        formatFedachRecord(achRecord(A, 'Alpha Bank')),
        formatFedachRecord(achRecord(B, 'Beta Bank Renamed')),
        formatFedachRecord(achRecord(C, 'Gamma Bank')),
      ]),
    );
    const s2 = await importDirectory(d.db, second, { source: 'fedach', origin: 'test' });
    assert.deepEqual([s2.imported, s2.updated, s2.unchanged], [1, 1, 1]);
    const store = new DirectoryStore(d.db);
    assert.equal(await store.count(), 3);
    assert.equal((await store.byRoutingNumber(B))[0]?.bankName, 'BETA BANK RENAMED');
    assert.equal(await store.version(), 2);
  });

  test('an interrupted import leaves the old directory intact', async () => {
    await importDirectory(
      d.db,
      parseFedach(fedachFile([formatFedachRecord(achRecord(A, 'Alpha Bank'))])),
      { source: 'fedach', origin: 'test' },
    );
    const big = parseFedach(
      fedachFile(
        Array.from({ length: 30 }, (_, i) =>
          formatFedachRecord(
            achRecord(i === 0 ? A : rtn(`0110${String(i).padStart(4, '0')}`), `Changed ${i}`),
          ),
        ),
      ),
    );
    await assert.rejects(
      importDirectory(d.db, big, {
        source: 'fedach',
        origin: 'test',
        batchSize: 10,
        onProgress: (done) => {
          if (done >= 20) throw new Error('interrupted');
        },
      }),
      /interrupted/,
    );
    const store = new DirectoryStore(d.db);
    assert.equal(await store.count(), 1);
    assert.equal((await store.byRoutingNumber(A))[0]?.bankName, 'ALPHA BANK');
    assert.equal(await store.version(), 1);
  });

  test('FedACH and Fedwire rows for one routing number stay separate sources', async () => {
    await importDirectory(d.db, parseFedach(formatFedachRecord(achRecord(A, 'Alpha Bank'))), {
      source: 'fedach',
      origin: 'test',
    });
    const w = await importDirectory(
      d.db,
      parseFedwire(formatFedwireRecord(wireRecord(A, 'Alpha Bank'))),
      { source: 'fedwire', origin: 'test' },
    );
    assert.equal(w.imported, 1);
    const rows = await new DirectoryStore(d.db).byRoutingNumber(A);
    assert.deepEqual(rows.map((r) => r.source).sort(), ['fedach', 'fedwire']);
  });
});
