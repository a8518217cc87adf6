// Store files are private to the service's user. The data folder the store
// creates is 0700 and the database with its WAL and shared-memory files 0600, whatever the umask (this
// test runs with umask 000, under which a default-mode file would be world-writable); a database left
// 0644 by an earlier version is narrowed when opened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../../src/shared/db/sqlite.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

test('a new SQLite store: folder 0700, database, -wal and -shm 0600 even under umask 000', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-modes-'));
  const previous = process.umask(0);
  try {
    const folder = join(scratch, 'data', 'nested');
    const db = openSqlite({ path: join(folder, 'toolgate.db') });
    await db.execute('CREATE TABLE t (v TEXT)');
    await db.execute('INSERT INTO t (v) VALUES ($1)', ['secret']);
    const files = readdirSync(folder).sort();
    assert.deepEqual(files, ['toolgate.db', 'toolgate.db-shm', 'toolgate.db-wal']);
    assert.equal(mode(folder), '700');
    assert.equal(mode(join(scratch, 'data')), '700');
    for (const file of files) assert.equal(mode(join(folder, file)), '600', file);
    await db.close();
  } finally {
    process.umask(previous);
    rmSync(scratch, { recursive: true, force: true });
  }
});

test('an existing world-readable database is narrowed to 0600 when opened', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-modes-'));
  try {
    const path = join(scratch, 'old.db');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    const db = openSqlite({ path });
    await db.execute('CREATE TABLE t (v TEXT)');
    assert.equal(mode(path), '600');
    for (const file of readdirSync(scratch)) assert.equal(mode(join(scratch, file)), '600', file);
    await db.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
