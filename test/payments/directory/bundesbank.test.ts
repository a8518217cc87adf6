// Issue 14: the Deutsche Bundesbank bank code file (Bankleitzahlendatei, 168 or 174 characters a
// record, ISO 8859-1) imports, and German IBANs resolve to their bank from it. The fixtures are
// hand-written in the published layout with invented banks.
import { test, beforeEach, afterEach, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMain } from '../../helpers/cli-in-process.js';
import {
  decodeBundesbank,
  parseBundesbank,
} from '../../../src/payments/directory/importers/bundesbank.js';
import { importDirectory } from '../../../src/payments/directory/import.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { lookupBank, type LookupOutcome } from '../../../src/payments/directory/lookup.js';
import { ibanFromBban } from '../../../src/payments/directory/iban.js';
import type { BankDetails } from '../../../src/payments/directory/bank-details.js';
import { forEachDirectoryStore, openDirectoryDb, type DirectoryDb } from './db.js';

const path = (name: string) => join(process.cwd(), 'test/fixtures/directory', name);
const BLZ = decodeBundesbank(readFileSync(path('bundesbank-blz.txt')));

test('every record of the bank code file parses; ISO 8859-1 names are decoded', () => {
  const parsed = parseBundesbank(BLZ);
  assert.deepEqual(parsed.skipped, []);
  assert.equal(parsed.entries.length, 5);
  const koeln = parsed.entries[2]?.entry;
  assert.equal(koeln?.bankName, 'Rheinische Genossenschaftsbank Köln eG');
  assert.equal(koeln?.address.townName, 'Köln');
  assert.equal(koeln?.bic, 'GENRDEK1XXX');
  assert.equal(koeln?.bankCode, '37040050');
  const branch = parsed.entries[1]?.entry;
  assert.equal(branch?.officeType, 'BRANCH');
  assert.equal(branch?.bic, undefined, 'a blank BIC stays blank');
  assert.equal(parsed.entries[4]?.entry.status, 'INACTIVE', 'change code D: deleted');
  assert.equal(parsed.entries[3]?.entry.successorBankCode, '37040050');
});

test('the extended file (field 14, IBAN rule) parses the same', () => {
  const parsed = parseBundesbank(
    decodeBundesbank(readFileSync(path('bundesbank-blz-extended.txt'))),
  );
  assert.deepEqual(parsed.skipped, []);
  assert.deepEqual(
    parsed.entries.map((e) => e.entry),
    [0, 2].map((i) => parseBundesbank(BLZ).entries[i]?.entry),
  );
});

test('malformed bank code records are skipped with their reason', () => {
  const first = BLZ.split('\r\n')[0] ?? '';
  const bad = [
    first.slice(0, 100),
    `0${first.slice(1)}`,
    first.replace('BEBEDEBBXXX', 'BEBEFRBBXXX'),
  ];
  assert.deepEqual(
    parseBundesbank(bad.join('\n')).skipped.map((s) => s.reason),
    [
      'record has 100 characters, expected 168 or 174',
      'bank code "00020030" is not 8 digits',
      'BIC country FR is not DE',
    ],
  );
});

forEachDirectoryStore('German IBANs from the Bundesbank file (issue 14)', (kind) => {
  let h: DirectoryDb;
  let store: DirectoryStore;
  beforeEach(async () => {
    h = await openDirectoryDb(kind);
    await importDirectory(h.db, parseBundesbank(BLZ), { source: 'bundesbank', origin: 'blz' });
    store = new DirectoryStore(h.db);
  });
  afterEach(() => h.close());

  const found = (o: LookupOutcome): BankDetails => {
    assert.equal(o.kind, 'found', JSON.stringify(o));
    return (o as { details: BankDetails }).details;
  };

  test('a German IBAN resolves to its bank: name, BIC, town of the head office', async () => {
    const iban = ibanFromBban('DE', '100200300123456789');
    assert.ok(iban);
    const d = found(
      await lookupBank(
        store,
        { identificationNumber: iban, identificationType: 'IBAN' },
        { nameThreshold: 0.85 },
      ),
    );
    assert.equal(d.bankName, 'Beispielbank Berlin AG');
    assert.equal(d.bic, 'BEBEDEBB');
    assert.equal(d.bankCode, '10020030');
    assert.equal(d.address?.townName, 'Berlin');
    assert.equal(d.address?.country, 'DE');
  });

  test('the BIC finds the bank too', async () => {
    const d = found(
      await lookupBank(
        store,
        { identificationNumber: 'GENRDEK1', identificationType: 'SWIFT_CODE' },
        { nameThreshold: 0.85 },
      ),
    );
    assert.equal(d.bankCode, '37040050');
    assert.equal(d.address?.townName, 'Köln');
  });
});

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-blz-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('toolgate bank-directory import --format bundesbank reads the ISO 8859-1 file', async () => {
  const run = await runMain(
    ['bank-directory', 'import', path('bundesbank-blz.txt'), '--format', 'bundesbank', '--json'],
    { TOOLGATE_DATA_DIR: dir },
  );
  assert.equal(run.code, 0, run.stderr);
  const s = JSON.parse(run.stdout) as { imported: number; skipped: unknown[] };
  assert.equal(s.imported, 5);
  assert.deepEqual(s.skipped, []);
});
