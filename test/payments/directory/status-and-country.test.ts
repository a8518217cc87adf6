// Issue 26, go-live item 6: "GLEIF registration status (LAPSED, ANNULLED, RETIRED) is kept and shown; a
// directory entry's country comes from the record, not a default (17 foreign Fedwire participants answer
// `US`)" — through the look-up behind fetch-bank-details, and the stored data fixed by migration v3.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importDirectory } from '../../../src/payments/directory/import.js';
import { parseFedwire } from '../../../src/payments/directory/importers/fedwire.js';
import { parseGleif } from '../../../src/payments/directory/importers/gleif.js';
import {
  decodeBundesbank,
  parseBundesbank,
} from '../../../src/payments/directory/importers/bundesbank.js';
import { lookupBank } from '../../../src/payments/directory/lookup.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { directoryMigrations } from '../../../src/payments/directory/migrations.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import { forEachDirectoryStore, openDirectoryDb } from './db.js';

const fixture = (name: string) =>
  readFileSync(join(process.cwd(), 'test/fixtures/directory', name));
const OPTIONS = { nameThreshold: 0.85 };

forEachDirectoryStore(
  'identifier status and country in bank details (issue 26, item 6)',
  (kind) => {
    test('a BIC whose LEI is LAPSED shows the registration status', async () => {
      const h = await openDirectoryDb(kind);
      try {
        await importDirectory(
          h.db,
          parseGleif(
            fixture('gleif-bic-lei.csv').toString('utf8'),
            fixture('gleif-lei-records.csv').toString('utf8'),
          ),
          { source: 'gleif', origin: 'test' },
        );
        const o = await lookupBank(
          new DirectoryStore(h.db),
          { identificationNumber: 'EXBKGB2L', identificationType: 'SWIFT_CODE' },
          OPTIONS,
        );
        assert.equal(o.kind, 'found');
        assert.equal(o.kind === 'found' && o.details.customFields?.leiRegistrationStatus, 'LAPSED');
      } finally {
        await h.close();
      }
    });

    test("a German bank code's check-digit method and announced deletion are shown", async () => {
      const h = await openDirectoryDb(kind);
      try {
        const parsed = parseBundesbank(decodeBundesbank(fixture('bundesbank-blz.txt')));
        await importDirectory(h.db, parsed, { source: 'bundesbank', origin: 'test' });
        // A bank code look-up (BANK_BRANCH_CODE matches the bank code column).
        const byCode = await lookupBank(
          new DirectoryStore(h.db),
          { identificationNumber: '50070080', identificationType: 'BANK_BRANCH_CODE' },
          OPTIONS,
        );
        assert.equal(byCode.kind, 'found');
        const fields = byCode.kind === 'found' ? byCode.details.customFields : undefined;
        assert.equal(fields?.checkDigitMethod, '00');
        assert.equal(fields?.deletionAnnounced, true);
      } finally {
        await h.close();
      }
    });

    test('a foreign Fedwire participant answers ZZ, not US; migration v3 fixes stored rows', async () => {
      const h = await openDirectoryDb(kind);
      try {
        await importDirectory(
          h.db,
          parseFedwire(fixture('fedwire-edge-cases.txt').toString('utf8')),
          {
            source: 'fedwire',
            origin: 'test',
          },
        );
        const store = new DirectoryStore(h.db);
        const look = () =>
          lookupBank(
            store,
            { identificationNumber: '071040015', identificationType: 'ROUTING_NUMBER' },
            OPTIONS,
          );
        const found = await look();
        assert.equal(found.kind === 'found' && found.details.address?.country, 'ZZ');
        // The state of a directory imported before the fix: the foreign participant stored as US.
        await h.db.execute(
          `UPDATE bank_directory SET country = 'US', details = REPLACE(details, '"country":"ZZ"', '"country":"US"')
         WHERE entry_key = '071040015'`,
        );
        await h.db.execute(
          "DELETE FROM schema_migrations WHERE component = 'bank-directory' AND version = 3",
        );
        const stale = await look();
        assert.equal(stale.kind === 'found' && stale.details.address?.country, 'US');
        await runMigrations(h.db, 'bank-directory', directoryMigrations);
        const fixed = await look();
        assert.equal(fixed.kind === 'found' && fixed.details.address?.country, 'ZZ');
        const rows = await h.db.query<{ country: string }>(
          "SELECT country FROM bank_directory WHERE entry_key = '071040015'",
        );
        assert.equal(rows[0]?.country, 'ZZ');
        // A US participant is untouched.
        const us = await lookupBank(
          store,
          { identificationNumber: '011000028', identificationType: 'ROUTING_NUMBER' },
          OPTIONS,
        );
        assert.equal(us.kind === 'found' && us.details.address?.country, 'US');
      } finally {
        await h.close();
      }
    });
  },
);
