// The audit log on SQLite and PostgreSQL: a hash chain that verifies, detects an edited entry, stays one
// chain under concurrent appends, refuses updates, and never holds a key or token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../../../src/shared/db/types.js';
import { AuditLog, GENESIS_HASH } from '../../../src/gateway/admin/audit-log.js';
import { ADMIN, DATABASE_TARGETS, type OpenedDatabase } from './support.js';

for (const target of DATABASE_TARGETS) {
  describe(`audit log: ${target.name}`, { skip: target.skip }, () => {
    let opened: OpenedDatabase;
    let db: Database;
    let audit: AuditLog;
    before(async () => {
      opened = await target.open();
      db = opened.db;
      audit = new AuditLog(db);
    });
    after(async () => opened.close());

    test('entries chain from the genesis hash; verify recomputes every link', async () => {
      await audit.append({
        actor: ADMIN,
        action: 'test.first',
        target: { type: 'thing', id: 't1' },
        after: { b: 2, a: 1 },
      });
      await audit.append({
        actor: ADMIN,
        action: 'test.second',
        target: { type: 'thing', id: 't1' },
        before: { a: 1 },
        after: null,
      });
      const [second, first] = await audit.query({ target: 'thing:t1' });
      assert.equal(first?.seq, 1);
      assert.equal(first?.prevHash, GENESIS_HASH);
      assert.equal(second?.prevHash, first?.hash);
      assert.deepEqual(second?.after, null);
      assert.deepEqual(await audit.verify(), { ok: true, entries: 2 });
    });

    test('concurrent appends form one chain with consecutive sequence numbers', async () => {
      const startCount = (await audit.verify()).entries;
      await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          audit.append({
            actor: ADMIN,
            action: 'test.concurrent',
            target: { type: 'n', id: String(i) },
          }),
        ),
      );
      const result = await audit.verify();
      assert.deepEqual(result, { ok: true, entries: startCount + 25 });
      const lines: string[] = [];
      for await (const line of audit.exportJsonLines(7)) lines.push(line);
      assert.equal(lines.length, startCount + 25, 'the export pages through every entry');
      const seqs = lines.map((l) => (JSON.parse(l) as { seq: number }).seq);
      assert.deepEqual(
        seqs,
        Array.from({ length: seqs.length }, (_, i) => i + 1),
      );
    });

    test('keys and tokens passed by mistake are masked before they are stored', async () => {
      const key = 'tgk_ABCDEFGHIJKLMNOPQRSTUVWXyz1234';
      await audit.append({
        actor: ADMIN,
        action: 'test.secret',
        target: { type: 'secret', id: 's' },
        after: { key, note: `token tga_${'x'.repeat(43)} here` },
      });
      const [entry] = await audit.query({ action: 'test.secret' });
      const text = JSON.stringify(entry);
      assert.ok(!text.includes(key) && !text.includes('x'.repeat(43)));
      assert.deepEqual(entry?.after, { key: 'tgk_…1234', note: 'token … here' });
      assert.equal((await audit.verify()).ok, true);
    });

    test('the table refuses updates and deletes', async () => {
      await assert.rejects(
        db.execute("UPDATE admin_audit_log SET action = 'x' WHERE seq = 1"),
        /append-only/,
      );
      await assert.rejects(db.execute('DELETE FROM admin_audit_log WHERE seq = 1'), /append-only/);
    });

    test('an entry edited behind the triggers breaks the chain at that entry', async () => {
      // Someone with direct database access removes the guard and rewrites history.
      if (db.dialect === 'sqlite') await db.exec('DROP TRIGGER admin_audit_log_no_update');
      else await db.exec('DROP TRIGGER admin_audit_log_no_change ON admin_audit_log');
      await db.execute(
        `UPDATE admin_audit_log SET after_json = '{"a":1,"b":3}' WHERE action = 'test.first'`,
      );
      const result = await audit.verify();
      assert.equal(result.ok, false);
      assert.equal(result.brokenAt, 1);
      // The entries after it still verify their own links, so the break is reported where it is.
      assert.ok(result.entries >= 1);
    });
  });
}
