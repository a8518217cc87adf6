import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMain } from '../../helpers/cli-in-process.js';
import { sampleFiles } from '../../../src/payments/directory/sample.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-bankdir-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], tty = false) => runMain(args, { TOOLGATE_DATA_DIR: dir }, { tty });

test('committed sample fixtures are exactly what the generator produces', () => {
  const files = sampleFiles();
  const fixture = (name: string) =>
    readFileSync(join(process.cwd(), 'test/fixtures/directory', name), 'utf8');
  assert.equal(fixture('sample-fedach.txt'), files.fedach);
  assert.equal(fixture('sample-fedwire.txt'), files.fedwire);
  assert.equal(fixture('sample-banks.csv'), files.csv);
});

test('bank-directory --help documents the command', async () => {
  const r = await run(['bank-directory', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--format fedach\|fedwire\|csv/);
});

test('import prints a summary with skipped line numbers; re-import upserts', async () => {
  const file = join(dir, 'fedach.txt');
  writeFileSync(file, `${sampleFiles().fedach}too short\n`);
  const first = await run(['bank-directory', 'import', file, '--format', 'fedach']);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /11 imported, 0 updated, 0 unchanged, 1 skipped of 12 records/);
  assert.match(first.stdout, /skipped line 12: record has 9 characters, expected 155/);
  assert.equal(first.stderr, '', 'no progress bar when stderr is not a terminal');
  const again = await run(['bank-directory', 'import', file, '--format', 'fedach', '--json'], true);
  const summary = JSON.parse(again.stdout) as Record<string, unknown>;
  assert.equal(summary['unchanged'], 11);
  assert.equal(summary['imported'], 0);
  assert.deepEqual(summary['skipped'], [
    { line: 12, reason: 'record has 9 characters, expected 155' },
  ]);
  const db = openSqlite({ path: join(dir, 'payments.db') });
  try {
    assert.equal(await new DirectoryStore(db).count(), 11);
  } finally {
    await db.close();
  }
});

test('a progress bar is drawn on a terminal', async () => {
  const file = join(dir, 'banks.csv');
  writeFileSync(file, sampleFiles().csv);
  const r = await run(['bank-directory', 'import', file, '--format', 'csv'], true);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /\r\[#+\] 100% 31\/31/);
});

test('usage errors and unreadable files exit non-zero with one line', async () => {
  const noFormat = await run(['bank-directory', 'import', 'x.txt']);
  assert.equal(noFormat.code, 2);
  assert.match(noFormat.stderr, /--format must be fedach, fedwire, csv, bundesbank or gleif/);
  const missing = await run(['bank-directory', 'import', join(dir, 'nope'), '--format', 'csv']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /file not found/);
  const wrongSub = await run(['bank-directory', 'export']);
  assert.equal(wrongSub.code, 2);
});
