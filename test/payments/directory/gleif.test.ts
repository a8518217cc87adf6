// Issue 14: the GLEIF BIC-to-LEI relationship file, joined with LEI records, gives BICs their legal
// name and address. Hand-written fixtures in the published CSV layouts, invented entities.
import { test, beforeEach, afterEach, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMain } from '../../helpers/cli-in-process.js';
import { isValidLei, parseGleif } from '../../../src/payments/directory/importers/gleif.js';
import { importDirectory } from '../../../src/payments/directory/import.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { lookupBank, type LookupOutcome } from '../../../src/payments/directory/lookup.js';
import type { BankDetails } from '../../../src/payments/directory/bank-details.js';
import { forEachDirectoryStore, openDirectoryDb, type DirectoryDb } from './db.js';

const path = (name: string) => join(process.cwd(), 'test/fixtures/directory', name);
const MAPPING = readFileSync(path('gleif-bic-lei.csv'), 'utf8');
const RECORDS = readFileSync(path('gleif-lei-records.csv'), 'utf8');

test('LEI check digits (ISO 17442, mod 97)', () => {
  assert.equal(isValidLei('5299000EXAMPLEBK0197'), true);
  assert.equal(isValidLei('5299000EXAMPLEBK0190'), false);
  assert.equal(isValidLei('5299000EXAMPLEBK01'), false);
});

test('mappings join their LEI records; unknown LEIs and bad check digits are skipped', () => {
  const parsed = parseGleif(MAPPING, RECORDS);
  assert.deepEqual(parsed.skipped, [
    { line: 6, reason: 'LEI 5493001NOTINRECS0027 is not in the LEI records file' },
    { line: 7, reason: 'LEI "5299000EXAMPLEBK0190" is not a valid LEI (ISO 17442)' },
  ]);
  assert.equal(parsed.entries.length, 4);
  const first = parsed.entries[0]?.entry;
  assert.equal(first?.bic, 'BEBEDEBBXXX');
  assert.equal(first?.bankName, 'Beispielbank Berlin Aktiengesellschaft');
  assert.equal(first?.lei, '5299000EXAMPLEBK0197');
  assert.deepEqual(first?.address, {
    addressLine: 'Unter den Linden 1',
    townName: 'Berlin',
    countrySubDivision: 'DE-BE',
    postalCode: '10117',
  });
  assert.equal(
    parsed.entries[1]?.entry.bankName,
    'Musterkasse Frankfurt am Main, Anstalt des öffentlichen Rechts',
  );
});

test('a mapping file without the LEI and BIC columns yields nothing, with the reason', () => {
  assert.deepEqual(parseGleif('a,b\n1,2\n', RECORDS).skipped, [
    { line: 1, reason: 'the BIC-to-LEI file has no column LEI, BIC' },
  ]);
});

forEachDirectoryStore('BIC look-ups from GLEIF data (issue 14)', (kind) => {
  let h: DirectoryDb;
  let store: DirectoryStore;
  beforeEach(async () => {
    h = await openDirectoryDb(kind);
    await importDirectory(h.db, parseGleif(MAPPING, RECORDS), { source: 'gleif', origin: 'g' });
    store = new DirectoryStore(h.db);
  });
  afterEach(() => h.close());

  const bic = async (id: string): Promise<BankDetails> => {
    const o: LookupOutcome = await lookupBank(
      store,
      { identificationNumber: id, identificationType: 'SWIFT_CODE' },
      { nameThreshold: 0.85 },
    );
    assert.equal(o.kind, 'found', JSON.stringify(o));
    return (o as { details: BankDetails }).details;
  };

  test('a BIC answers with the legal name, address and LEI of its entity', async () => {
    const d = await bic('MUSKDEFF');
    assert.equal(d.bankName, 'Musterkasse Frankfurt am Main, Anstalt des öffentlichen Rechts');
    assert.equal(d.customFields?.['lei'], '549300MUSTERKASSE084');
    assert.equal(d.address?.townName, 'Frankfurt am Main');
    assert.equal(d.address?.country, 'DE');
    assert.deepEqual(d.transferSupportType, [], 'the file states no transfer types: not ACH');
  });

  test('a branch BIC answers with its own mapping', async () => {
    const d = await bic('EXBKGB2LLDN');
    assert.equal(d.bic, 'EXBKGB2LLDN');
    assert.equal(d.bankName, 'Example Bank plc');
  });
});

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-gleif-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('toolgate bank-directory import --format gleif --lei-records joins the two files', async () => {
  const args = ['bank-directory', 'import', path('gleif-bic-lei.csv'), '--format', 'gleif'];
  const env = { TOOLGATE_DATA_DIR: dir };
  const without = await runMain(args, env);
  assert.equal(without.code, 2, 'gleif needs --lei-records');
  const run = await runMain(
    [...args, '--lei-records', path('gleif-lei-records.csv'), '--json'],
    env,
  );
  assert.equal(run.code, 0, run.stderr);
  const s = JSON.parse(run.stdout) as { imported: number; skipped: unknown[] };
  assert.equal(s.imported, 4);
  assert.equal(s.skipped.length, 2);
});
