// Schema of the bank directory (component "bank-directory"; docs/storage-schema.md).
import type { Migration } from '../../shared/db/migrations.js';

export const directoryMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'bank directory entries, meta and import log',
    up: `
CREATE TABLE bank_directory (
  source TEXT NOT NULL,
  entry_key TEXT NOT NULL,
  country TEXT NOT NULL,
  routing_number TEXT,
  bic TEXT,
  bic8 TEXT,
  bank_code TEXT,
  branch_code TEXT,
  sort_code TEXT,
  bank_name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  status TEXT NOT NULL,
  details TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (source, entry_key)
);
CREATE INDEX bank_directory_routing ON bank_directory (routing_number);
CREATE INDEX bank_directory_bic ON bank_directory (bic);
CREATE INDEX bank_directory_bic8 ON bank_directory (bic8);
CREATE INDEX bank_directory_bank_code ON bank_directory (country, bank_code, branch_code);
CREATE INDEX bank_directory_branch_code ON bank_directory (branch_code);
CREATE INDEX bank_directory_sort_code ON bank_directory (sort_code);
CREATE INDEX bank_directory_name ON bank_directory (country, name_key);
CREATE TABLE bank_directory_meta (
  id INTEGER PRIMARY KEY,
  version BIGINT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO bank_directory_meta (id, version, updated_at) VALUES (1, 0, '1970-01-01T00:00:00.000Z');
CREATE TABLE bank_directory_imports (
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  source TEXT NOT NULL,
  origin TEXT NOT NULL,
  imported INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  unchanged INTEGER NOT NULL,
  skipped INTEGER NOT NULL
);
`,
  },
  {
    version: 2,
    // A directory that only ever received the sample (import log) is flagged and its records marked,
    // so the first real import replaces it instead of mixing with it.
    name: 'sample flag of the directory, removed count of an import (issue 14)',
    up: `
ALTER TABLE bank_directory_meta ADD COLUMN sample INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bank_directory_imports ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
UPDATE bank_directory_meta SET sample = 1
 WHERE EXISTS (SELECT 1 FROM bank_directory)
   AND EXISTS (SELECT 1 FROM bank_directory_imports WHERE origin = 'sample')
   AND NOT EXISTS (SELECT 1 FROM bank_directory_imports WHERE origin <> 'sample');
UPDATE bank_directory SET details = '{"sample":true,' || substr(details, 2)
 WHERE (SELECT sample FROM bank_directory_meta WHERE id = 1) = 1;
`,
  },
  {
    version: 3,
    // Foreign (FedGlobal) participants have a blank state and no country in the Fed files: they were
    // stored as US. Their country is now ZZ (unknown); territories get theirs at the next import.
    name: 'country of foreign Fed participants from the record, not US (issue 26)',
    up: `
UPDATE bank_directory
   SET country = 'ZZ', details = REPLACE(details, '"country":"US"', '"country":"ZZ"')
 WHERE source IN ('fedach', 'fedwire') AND country = 'US'
   AND details NOT LIKE '%"countrySubDivision"%';
`,
  },
];
