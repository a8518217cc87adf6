// Issue 14: every well-formed record of the published FedACH (155 characters) and Fedwire (101
// characters) files imports, and the look-up reports exactly what the files say. The fixtures in
// test/fixtures/directory/*-edge-cases.txt are hand-written in the published layouts.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFedach } from '../../../src/payments/directory/importers/fedach.js';
import { parseFedwire } from '../../../src/payments/directory/importers/fedwire.js';
import { importDirectory } from '../../../src/payments/directory/import.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { lookupBank, type LookupOutcome } from '../../../src/payments/directory/lookup.js';
import type { BankDetails } from '../../../src/payments/directory/bank-details.js';
import { forEachDirectoryStore, openDirectoryDb, type DirectoryDb } from './db.js';

const fixture = (name: string) =>
  readFileSync(join(process.cwd(), 'test/fixtures/directory', name), 'utf8');
const FEDWIRE = fixture('fedwire-edge-cases.txt');
const FEDACH = fixture('fedach-edge-cases.txt');

const byRtn = (text: string, parse: typeof parseFedwire, rtn: string) => {
  const found = parse(text).entries.find((e) => e.entry.routingNumber === rtn);
  assert.ok(found, `record ${rtn} imported`);
  return found.entry;
};

test('every record of the Fedwire edge-case file parses (blank date, blank state, prefix 15)', () => {
  const parsed = parseFedwire(FEDWIRE);
  assert.deepEqual(parsed.skipped, []);
  assert.equal(parsed.entries.length, 7);
});

test('every record of the FedACH edge-case file parses (blank phone, state, zip, change date)', () => {
  const parsed = parseFedach(FEDACH);
  assert.deepEqual(parsed.skipped, []);
  assert.equal(parsed.entries.length, 5);
});

test('a Fedwire record with a blank revision date imports with no date', () => {
  const e = byRtn(FEDWIRE, parseFedwire, '011000028');
  assert.equal(e.changedOn, undefined);
  assert.equal(e.bankName, 'STATE STREET BANK AND TRUST COMPANY');
});

test('a blank state stays blank (foreign FedGlobal participant) in both files', () => {
  const wire = byRtn(FEDWIRE, parseFedwire, '071040015');
  assert.equal(wire.address.countrySubDivision, undefined);
  assert.equal(wire.address.townName, 'MONTERREY');
  const ach = byRtn(FEDACH, parseFedach, '071040015');
  assert.equal(ach.address.countrySubDivision, undefined);
  assert.equal(ach.address.postalCode, undefined);
  assert.equal(ach.address.phoneNumber, undefined);
  assert.equal(ach.address.addressLine, 'AV CONSTITUCION 405');
});

test('a FedACH record with a blank telephone imports with no phone number', () => {
  const e = byRtn(FEDACH, parseFedach, '274070484');
  assert.equal(e.address.phoneNumber, undefined);
  assert.equal(e.address.postalCode, '43219');
});

test('Treasury routing numbers beginning with 15 import from both files', () => {
  assert.equal(byRtn(FEDWIRE, parseFedwire, '151000014').source, 'fedwire');
  assert.equal(byRtn(FEDACH, parseFedach, '151000014').source, 'fedach');
});

test('a bad checksum is still refused whatever the prefix', () => {
  const bad = FEDWIRE.split('\n')[2]?.replace(/^151000014/, '151000015') ?? '';
  assert.match(parseFedwire(bad).skipped[0]?.reason ?? '', /checksum/);
});

test('Fedwire transfer types follow the three flags exactly', () => {
  const types = (rtn: string) => byRtn(FEDWIRE, parseFedwire, rtn).transferTypes;
  assert.deepEqual(types('011000028'), ['WIRE', 'BOOK_ENTRY_SECURITIES']);
  assert.deepEqual(types('274070484'), ['WIRE']);
  assert.deepEqual(types('021002090'), ['BOOK_ENTRY_SECURITIES'], 'securities only');
  assert.deepEqual(types('021002100'), ['WIRE_SETTLEMENT_ONLY'], 'settlement only');
});

forEachDirectoryStore('real-file look-ups (issue 14)', (kind) => {
  let h: DirectoryDb;
  let store: DirectoryStore;
  beforeEach(async () => {
    h = await openDirectoryDb(kind);
    await importDirectory(h.db, parseFedach(FEDACH), { source: 'fedach', origin: 'fedach' });
    await importDirectory(h.db, parseFedwire(FEDWIRE), { source: 'fedwire', origin: 'fedwire' });
    store = new DirectoryStore(h.db);
  });
  afterEach(() => h.close());

  const found = (o: LookupOutcome): BankDetails => {
    assert.equal(o.kind, 'found', JSON.stringify(o));
    return (o as { details: BankDetails }).details;
  };
  const rtn = async (id: string) =>
    found(
      await lookupBank(
        store,
        { identificationNumber: id, identificationType: 'ROUTING_NUMBER' },
        { nameThreshold: 0.85 },
      ),
    );

  test('State Street 011000028 offers ACH and wires (not ACH only)', async () => {
    const d = await rtn('011000028');
    assert.deepEqual(d.transferSupportType, ['ACH', 'WIRE', 'BOOK_ENTRY_SECURITIES']);
    assert.deepEqual(d.network, ['FEDACH', 'FEDWIRE']);
  });

  test('Huntington 274070484 is found, and both names are kept', async () => {
    const d = await rtn('274070484');
    assert.equal(d.bankName, 'HUNTINGTON NATIONAL BANK');
    assert.deepEqual(d.customFields?.bankNames, {
      fedach: 'HUNTINGTON NATIONAL BANK',
      fedwire: 'THE HUNTINGTON NATIONAL BANK',
    });
    assert.equal(d.address?.phoneNumber, undefined);
  });

  test('a securities-only participant is not reported as ACH', async () => {
    const d = await rtn('021002090');
    assert.deepEqual(d.transferSupportType, ['BOOK_ENTRY_SECURITIES']);
  });

  test('a settlement-only participant is not offered for wires', async () => {
    const d = await rtn('021002100');
    assert.ok(!d.transferSupportType?.includes('WIRE'), JSON.stringify(d.transferSupportType));
    assert.deepEqual(d.serviceSupportType, ['FUNDS_TRANSFER', 'SETTLEMENT_ONLY']);
  });

  test('a Treasury routing number beginning with 15 is found by routing number', async () => {
    const d = await rtn('151000014');
    assert.equal(d.identification, '151000014');
    assert.equal(d.federalReserveDistrict, undefined);
  });

  test('an unlisted number with an unknown prefix is still malformed', async () => {
    const o = await lookupBank(
      store,
      { identificationNumber: '151000022', identificationType: 'ROUTING_NUMBER' },
      { nameThreshold: 0.85 },
    );
    assert.equal(o.kind, 'malformed');
  });
});

test('the JSON form of the Fedwire directory gives the same records as the fixed-width file', () => {
  const json = parseFedwire(fixture('fedwire-edge-cases.json'));
  assert.deepEqual(json.skipped, []);
  assert.deepEqual(
    json.entries.map((e) => e.entry),
    parseFedwire(FEDWIRE).entries.map((e) => e.entry),
  );
});

test('the JSON form of the FedACH directory gives the same records as the fixed-width file', () => {
  const json = parseFedach(fixture('fedach-edge-cases.json'));
  assert.deepEqual(json.skipped, []);
  assert.deepEqual(
    json.entries.map((e) => e.entry),
    parseFedach(FEDACH).entries.map((e) => e.entry),
  );
});

test('JSON participants that do not fit the record are skipped with their position and reason', () => {
  const text = JSON.stringify({
    fedwireParticipants: {
      fedwireParticipants: [
        { routingNumber: '0110000281', customerName: 'X' },
        { routingNumber: 11000028 },
        'not an object',
      ],
    },
  });
  assert.deepEqual(parseFedwire(text).skipped, [
    { line: 1, reason: 'routingNumber is longer than 9 characters' },
    { line: 2, reason: 'routingNumber is not a string' },
    { line: 3, reason: 'participant is not an object' },
  ]);
  assert.match(parseFedach(text).skipped[0]?.reason ?? '', /expected \{"fedACHParticipants"/);
});
