// Issue 26, go-live item 5: "Directory replacement cannot wipe the directory. `--replace` with a
// truncated file deleted 11,829 of 18,198 records and exited 0. Refuse a replacement that would remove
// more than a configurable share of records, or whose file had unreadable lines, unless `--force`; print
// the counts before and after."
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMain } from '../../helpers/cli-in-process.js';
import { parseFedwire } from '../../../src/payments/directory/importers/fedwire.js';
import { DirectoryImportError, importDirectory } from '../../../src/payments/directory/import.js';
import { DirectoryStore } from '../../../src/payments/directory/store.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { forEachDirectoryStore, openDirectoryDb, type DirectoryDb } from './db.js';

const FEDWIRE = readFileSync(
  join(process.cwd(), 'test/fixtures/directory/fedwire-edge-cases.txt'),
  'utf8',
);
const LINES = FEDWIRE.split('\n').filter((l) => l !== '');
const truncated = (n: number) => `${LINES.slice(0, n).join('\n')}\n`;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolgate-bankdir-guard-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function directoryState(dataDir: string): Promise<{ count: number; version: number }> {
  const db = openSqlite({ path: join(dataDir, 'payments.db') });
  try {
    const store = new DirectoryStore(db);
    return { count: await store.count(), version: await store.version() };
  } finally {
    await db.close();
  }
}

test('item 5: a truncated file with --replace is refused, exit 1, counts printed, nothing changed', async () => {
  const data = mkdtempSync(join(dir, 'a-'));
  const run = (args: string[]) => runMain(args, { TOOLGATE_DATA_DIR: data });
  const full = join(data, 'fpddir.txt');
  writeFileSync(full, FEDWIRE);
  assert.equal((await run(['bank-directory', 'import', full, '--format', 'fedwire'])).code, 0);
  const beforeState = await directoryState(data);
  assert.equal(beforeState.count, 7);

  const cut = join(data, 'cut.txt');
  writeFileSync(cut, truncated(3));
  const r = await run(['bank-directory', 'import', cut, '--format', 'fedwire', '--replace']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /DIRECTORY_REPLACE_REFUSED/);
  assert.match(r.stderr, /remove 4 of 7 fedwire records \(57\.1% > 10%\)/);
  assert.match(r.stderr, /7 before, 3 after/);
  // What would be removed: the routing numbers of the lines cut off.
  for (const line of LINES.slice(3)) assert.ok(r.stderr.includes(line.slice(0, 9)), line);
  assert.deepEqual(
    await directoryState(data),
    beforeState,
    'nothing changed, not even the version',
  );

  const forced = await run([
    'bank-directory',
    'import',
    cut,
    '--format',
    'fedwire',
    '--replace',
    '--force',
  ]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /fedwire records: 7 before, 3 after/);
  assert.equal((await directoryState(data)).count, 3);
});

test('item 5: a --replace file with unreadable lines is refused even when it removes nothing', async () => {
  const data = mkdtempSync(join(dir, 'b-'));
  const run = (args: string[]) => runMain(args, { TOOLGATE_DATA_DIR: data });
  const file = join(data, 'fpddir.txt');
  writeFileSync(file, FEDWIRE);
  assert.equal((await run(['bank-directory', 'import', file, '--format', 'fedwire'])).code, 0);
  writeFileSync(file, `${FEDWIRE}THIS LINE IS NOT A RECORD\n`);
  const r = await run([
    'bank-directory',
    'import',
    file,
    '--format',
    'fedwire',
    '--replace',
    '--json',
  ]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /the file has 1 unreadable line/);
  const refusal = JSON.parse(r.stdout) as { refused: string; unreadable: number; removed: number };
  assert.equal(refusal.refused, 'DIRECTORY_REPLACE_REFUSED');
  assert.equal(refusal.unreadable, 1);
  assert.equal(refusal.removed, 0);
  // Without --replace the same file imports (upsert, bad line skipped and listed).
  assert.equal((await run(['bank-directory', 'import', file, '--format', 'fedwire'])).code, 0);
});

test('item 5: the share is configurable (payments.directory.replaceMaxRemovedPercent)', async () => {
  const data = mkdtempSync(join(dir, 'c-'));
  const config = join(data, 'toolgate.json');
  writeFileSync(
    config,
    JSON.stringify({ payments: { directory: { replaceMaxRemovedPercent: 60 } } }),
  );
  const run = (args: string[]) =>
    runMain([...args, '--config', config], { TOOLGATE_DATA_DIR: data });
  const file = join(data, 'fpddir.txt');
  writeFileSync(file, FEDWIRE);
  assert.equal((await run(['bank-directory', 'import', file, '--format', 'fedwire'])).code, 0);
  writeFileSync(file, truncated(3)); // 4 of 7 = 57% ≤ 60%
  const r = await run(['bank-directory', 'import', file, '--format', 'fedwire', '--replace']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /4 removed/);
  writeFileSync(file, truncated(1)); // 2 of 3 = 67% > 60%
  const refused = await run(['bank-directory', 'import', file, '--format', 'fedwire', '--replace']);
  assert.equal(refused.code, 1);
});

test('item 5: --force without --replace is a usage error', async () => {
  const r = await runMain(['bank-directory', 'import', 'x.txt', '--format', 'fedwire', '--force'], {
    TOOLGATE_DATA_DIR: dir,
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--force goes with --replace/);
});

forEachDirectoryStore('replacement guard in the import (issue 26, item 5)', (kind) => {
  let h: DirectoryDb;
  beforeEach(async () => {
    h = await openDirectoryDb(kind);
  });
  afterEach(() => h.close());

  test('refuses before writing, inside the transaction, and reports what it would remove', async () => {
    await importDirectory(h.db, parseFedwire(FEDWIRE), { source: 'fedwire', origin: 'a' });
    const store = new DirectoryStore(h.db);
    const version = await store.version();
    await assert.rejects(
      importDirectory(h.db, parseFedwire(truncated(6)), {
        source: 'fedwire',
        origin: 'b',
        replace: true,
        maxRemovedPercent: 10, // 1 of 7 = 14.3%
      }),
      (e: unknown) =>
        e instanceof DirectoryImportError &&
        e.code === 'DIRECTORY_REPLACE_REFUSED' &&
        e.refusal?.before === 7 &&
        e.refusal.after === 6 &&
        e.refusal.removed === 1 &&
        e.refusal.wouldRemove[0]?.key === LINES[6]?.slice(0, 9),
    );
    assert.equal(await store.count(), 7);
    assert.equal(await store.version(), version);
    const ok = await importDirectory(h.db, parseFedwire(truncated(6)), {
      source: 'fedwire',
      origin: 'b',
      replace: true,
      maxRemovedPercent: 15,
    });
    assert.deepEqual([ok.before, ok.after, ok.removed], [7, 6, 1]);
  });

  test('replacing the synthetic sample or an empty source is never refused', async () => {
    const s = await importDirectory(h.db, parseFedwire(truncated(1)), {
      source: 'fedwire',
      origin: 'first',
      replace: true,
    });
    assert.deepEqual([s.before, s.after], [0, 1]);
  });
});
