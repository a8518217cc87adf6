// Issue 14: an import that yields no record is refused with its reason; --replace swaps a source's
// whole directory in one transaction; the synthetic sample never mixes with imported data and answers
// from it say they are sample data.
import { test, beforeEach, afterEach, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMain } from '../../helpers/cli-in-process.js';
import { parseFedach } from '../../../src/payments/directory/importers/fedach.js';
import { parseFedwire } from '../../../src/payments/directory/importers/fedwire.js';
import { DirectoryImportError, importDirectory } from '../../../src/payments/directory/import.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { lookupBank } from '../../../src/payments/directory/lookup.js';
import { loadSampleIfEmpty, sampleFiles } from '../../../src/payments/directory/sample.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import { directoryMigrations } from '../../../src/payments/directory/migrations.js';
import { forEachDirectoryStore, openDirectoryDb, type DirectoryDb } from './db.js';

const fixture = (name: string) =>
  readFileSync(join(process.cwd(), 'test/fixtures/directory', name), 'utf8');
const FEDWIRE = fixture('fedwire-edge-cases.txt');
const FEDACH = fixture('fedach-edge-cases.txt');

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-bankdir-replace-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runMain(args, { TOOLGATE_DATA_DIR: dir });

test('importing an empty file exits 1 and says the file is empty', async () => {
  const file = join(dir, 'empty.txt');
  writeFileSync(file, '');
  const r = await run(['bank-directory', 'import', file, '--format', 'fedwire']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /DIRECTORY_IMPORT_EMPTY: no fedwire record imported: .*empty file/);
});

test('importing a file of another format exits 1 with the first reason', async () => {
  const file = join(dir, 'wire-as-ach.txt');
  writeFileSync(file, FEDWIRE);
  const r = await run(['bank-directory', 'import', file, '--format', 'fedach']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /none of the 7 records is valid \(line 1: record has 101 characters/);
  assert.match(r.stderr, /fedach format/);
});

test('--replace removes records absent from the new file', async () => {
  const file = join(dir, 'fedwire.txt');
  writeFileSync(file, FEDWIRE);
  const first = await run(['bank-directory', 'import', file, '--format', 'fedwire']);
  assert.equal(first.code, 0, first.stderr);
  writeFileSync(file, FEDWIRE.split('\n').slice(0, 3).join('\n'));
  const kept = await run(['bank-directory', 'import', file, '--format', 'fedwire', '--json']);
  assert.equal((JSON.parse(kept.stdout) as { removed: number }).removed, 0, 'upsert keeps them');
  // Removing 4 of 7 is beyond the replacement guard (issue 26, item 5): --force says it is meant.
  const r = await run([
    'bank-directory',
    'import',
    file,
    '--format',
    'fedwire',
    '--replace',
    '--force',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /4 removed \(not in the file\)/);
  const db = openSqlite({ path: join(dir, 'payments.db') });
  try {
    assert.equal(await new DirectoryStore(db).count(), 3);
  } finally {
    await db.close();
  }
});

test('the help documents --replace', async () => {
  const r = await run(['bank-directory', '--help']);
  assert.match(r.stdout, /--replace/);
});

forEachDirectoryStore('replace and sample (issue 14)', (kind) => {
  let h: DirectoryDb;
  beforeEach(async () => {
    h = await openDirectoryDb(kind);
  });
  afterEach(() => h.close());

  test('a parsed file with no valid record is refused before anything is written', async () => {
    await assert.rejects(
      importDirectory(h.db, parseFedach('short line\n'), { source: 'fedach', origin: 'x' }),
      (e: unknown) => e instanceof DirectoryImportError && e.code === 'DIRECTORY_IMPORT_EMPTY',
    );
    assert.equal(await new DirectoryStore(h.db).version(), 0);
  });

  test('an interrupted --replace leaves the old directory intact', async () => {
    await importDirectory(h.db, parseFedwire(FEDWIRE), { source: 'fedwire', origin: 'a' });
    const smaller = parseFedwire(FEDWIRE.split('\n').slice(0, 2).join('\n'));
    await assert.rejects(
      importDirectory(h.db, smaller, {
        source: 'fedwire',
        origin: 'b',
        replace: true,
        force: true,
        onProgress: () => {
          throw new Error('interrupted');
        },
      }),
    );
    assert.equal(await new DirectoryStore(h.db).count(), 7);
    const done = await importDirectory(h.db, smaller, {
      source: 'fedwire',
      origin: 'b',
      replace: true,
      force: true,
    });
    assert.equal(done.removed, 5);
    assert.equal(await new DirectoryStore(h.db).count(), 2);
  });

  test('--replace of one source leaves the other source alone', async () => {
    await importDirectory(h.db, parseFedach(FEDACH), { source: 'fedach', origin: 'a' });
    await importDirectory(h.db, parseFedwire(FEDWIRE), { source: 'fedwire', origin: 'a' });
    const one = parseFedwire(FEDWIRE.split('\n')[0] ?? '');
    await importDirectory(h.db, one, {
      source: 'fedwire',
      origin: 'b',
      replace: true,
      force: true,
    });
    assert.equal(await new DirectoryStore(h.db).count(), 5 + 1);
  });

  test('answers from the sample say they are sample data', async () => {
    await loadSampleIfEmpty(h.db);
    const store = new DirectoryStore(h.db);
    assert.equal(await store.isSample(), true);
    const rtn = sampleFiles().fedwire.slice(0, 9);
    const o = await lookupBank(
      store,
      { identificationNumber: rtn, identificationType: 'ROUTING_NUMBER' },
      { nameThreshold: 0.85 },
    );
    assert.equal(o.kind, 'found');
    assert.equal(o.kind === 'found' && o.details.customFields?.sampleData, true);
    const missing = await lookupBank(
      store,
      { identificationNumber: '011000028', identificationType: 'ROUTING_NUMBER' },
      { nameThreshold: 0.85 },
    );
    assert.match(missing.kind === 'not-found' ? missing.reason : '', /only sample data/);
  });

  test('an import into the sample directory replaces the whole sample', async () => {
    await loadSampleIfEmpty(h.db);
    const s = await importDirectory(h.db, parseFedwire(FEDWIRE), {
      source: 'fedwire',
      origin: 'real',
    });
    assert.equal(s.replacedSample, true);
    const store = new DirectoryStore(h.db);
    assert.equal(await store.count(), 7, 'no sample FedACH, Fedwire or CSV row is left');
    assert.equal(await store.isSample(), false);
    const o = await lookupBank(
      store,
      { identificationNumber: '011000028', identificationType: 'ROUTING_NUMBER' },
      { nameThreshold: 0.85 },
    );
    assert.equal(o.kind === 'found' && o.details.customFields?.sampleData, undefined);
    assert.equal(await loadSampleIfEmpty(h.db), undefined, 'no sample into a real directory');
  });

  test('the sample is never loaded into a directory holding imported data', async () => {
    await importDirectory(h.db, parseFedach(FEDACH), { source: 'fedach', origin: 'real' });
    await assert.rejects(
      importDirectory(h.db, parseFedwire(sampleFiles().fedwire), {
        source: 'fedwire',
        origin: 'sample',
        sample: true,
      }),
      (e: unknown) => e instanceof DirectoryImportError && e.code === 'DIRECTORY_SAMPLE_REFUSED',
    );
    assert.equal(await new DirectoryStore(h.db).count(), 5);
  });
});

test('--format fedwire imports the JSON form of the directory', async () => {
  const file = join(dir, 'fpddir.json');
  writeFileSync(file, fixture('fedwire-edge-cases.json'));
  const r = await run(['bank-directory', 'import', file, '--format', 'fedwire', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout) as { total: number; skipped: unknown[] };
  assert.equal(s.total, 7);
  assert.deepEqual(s.skipped, []);
});

forEachDirectoryStore('a sample loaded before migration 2 (issue 14)', (kind) => {
  test('is flagged by the migration, marked, and replaced by the first real import', async () => {
    const h = await openDirectoryDb(kind);
    try {
      // Recreate the state of a v1 directory holding the sample: drop what v2 added.
      await h.db.exec('ALTER TABLE bank_directory_meta DROP COLUMN sample');
      await h.db.exec('ALTER TABLE bank_directory_imports DROP COLUMN removed');
      await h.db.exec(
        "DELETE FROM schema_migrations WHERE component = 'bank-directory' AND version = 2",
      );
      const entry = parseFedwire(sampleFiles().fedwire).entries[0]?.entry;
      assert.ok(entry?.routingNumber);
      await h.db.execute(
        `INSERT INTO bank_directory (source, entry_key, country, routing_number, bank_name,
         name_key, status, details, content_hash, updated_at)
         VALUES ('fedwire', $1, 'US', $1, $2, 'x', 'ACTIVE', $3, 'h', '2026-01-01T00:00:00Z')`,
        [entry.routingNumber, entry.bankName, JSON.stringify(entry)],
      );
      await h.db.execute(
        `INSERT INTO bank_directory_imports (started_at, finished_at, source, origin, imported,
         updated, unchanged, skipped) VALUES ('t', 't', 'fedwire', 'sample', 1, 0, 0, 0)`,
      );
      await runMigrations(h.db, 'bank-directory', directoryMigrations);
      const store = new DirectoryStore(h.db);
      assert.equal(await store.isSample(), true);
      const o = await lookupBank(
        store,
        { identificationNumber: entry.routingNumber, identificationType: 'ROUTING_NUMBER' },
        { nameThreshold: 0.85 },
      );
      assert.equal(o.kind === 'found' && o.details.customFields?.sampleData, true);
      await importDirectory(h.db, parseFedach(FEDACH), { source: 'fedach', origin: 'real' });
      assert.equal(await store.count(), 5, 'the old sample row is gone');
    } finally {
      await h.close();
    }
  });
});
