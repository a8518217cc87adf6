// Issue 14: a bank name shared by many routing numbers ("Wells Fargo Bank": 126 in the real FedACH
// file) is reported as ambiguous, with the candidates, instead of one of them passing for the answer.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatFedachRecord,
  parseFedach,
} from '../../../src/payments/directory/importers/fedach.js';
import { importDirectory } from '../../../src/payments/directory/import.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { lookupBank, type LookupOutcome } from '../../../src/payments/directory/lookup.js';
import { generateFedachRecords } from '../../../src/payments/directory/sample.js';
import type { BankDetails } from '../../../src/payments/directory/bank-details.js';
import { forEachDirectoryStore, openDirectoryDb, type DirectoryDb } from './db.js';

const records = [...generateFedachRecords(130, 14)].map((r, i) => ({
  ...r,
  customerName: i < 126 ? 'WELLS FARGO BANK' : i === 126 ? 'OZARK MOUNTAIN THRIFT' : r.customerName,
}));

forEachDirectoryStore('ambiguous bank names (issue 14)', (kind) => {
  let h: DirectoryDb;
  let store: DirectoryStore;
  beforeEach(async () => {
    h = await openDirectoryDb(kind);
    const text = `${records.map(formatFedachRecord).join('\n')}\n`;
    await importDirectory(h.db, parseFedach(text), { source: 'fedach', origin: 'test' });
    store = new DirectoryStore(h.db);
  });
  afterEach(() => h.close());

  const byName = async (bankName: string): Promise<BankDetails> => {
    const o: LookupOutcome = await lookupBank(
      store,
      { identificationType: 'OTHERS', identificationNumber: 'NOCODE', bankName },
      { nameThreshold: 0.85 },
    );
    assert.equal(o.kind, 'found', JSON.stringify(o));
    return (o as { details: BankDetails }).details;
  };

  test('a name shared by 126 routing numbers is ambiguous and lists candidates', async () => {
    const d = await byName('Wells Fargo Bank');
    const c = d.customFields ?? {};
    assert.equal(c['nameAmbiguous'], true);
    assert.equal(c['candidateCount'], 126);
    const shown = c['candidates'] as { identification: string; bankName: string }[];
    assert.equal(shown.length, 20);
    const all = new Set(records.slice(0, 126).map((r) => r.routingNumber));
    for (const s of shown) {
      assert.ok(all.has(s.identification), s.identification);
      assert.equal(s.bankName, 'WELLS FARGO BANK');
    }
    assert.equal(new Set(shown.map((s) => s.identification)).size, 20);
  });

  test('a name only one bank has is not ambiguous', async () => {
    const d = await byName('Ozark Mountain Thrift');
    assert.equal(d.identification, records[126]?.routingNumber);
    assert.equal(d.customFields?.['nameAmbiguous'], undefined);
    assert.equal(d.customFields?.['candidates'], undefined);
  });
});
