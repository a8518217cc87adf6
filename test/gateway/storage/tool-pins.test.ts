// gateway_tool_pins (issue 25, "Pinned tool definitions"; docs/storage-schema.md): first-load pins and
// hold-backs happen — and are audited — once however many replicas race to record them; an approval
// re-pins and clears the hold-back. SQLite always, PostgreSQL when DATABASE_URL is set.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditLog } from '../../../src/gateway/admin/audit-log.js';
import { definitionHash } from '../../../src/gateway/catalogue/definition.js';
import type { PinCandidate } from '../../../src/gateway/catalogue/pins.js';
import { ToolPinRepository } from '../../../src/gateway/storage/tool-pins.js';
import { DATABASE_TARGETS } from '../admin/support.js';

function candidate(name: string, description: string): PinCandidate {
  const definition = { name, description };
  return { name, hash: definitionHash(definition), definition };
}

for (const target of DATABASE_TARGETS)
  describe(`tool pins (${target.name})`, { skip: target.skip }, () => {
    it('concurrent first-load pins and hold-backs are each recorded and audited once', async () => {
      const opened = await target.open();
      try {
        const { db } = opened;
        const replicas = [new ToolPinRepository(db), new ToolPinRepository(db)];
        const tools = [candidate('a', 'one'), candidate('b', 'two')];
        const pinned = await Promise.all(replicas.map((r) => r.pinIfAbsent(tools)));
        assert.deepEqual(pinned.flat().sort(), ['a', 'b']);
        const changed = candidate('a', 'one, changed');
        const held = await Promise.all(replicas.map((r) => r.recordHeld([changed])));
        assert.deepEqual(held.flat(), ['a']);
        // The same changed definition again: nothing new to record.
        assert.deepEqual(await replicas[0]?.recordHeld([changed]), []);
        const audit = new AuditLog(db);
        assert.equal((await audit.query({ action: 'tool.pin' })).length, 2);
        const holds = await audit.query({ action: 'tool.hold' });
        assert.equal(holds.length, 1);
        assert.deepEqual(holds[0]?.before, { definitionHash: tools[0]?.hash });
        assert.deepEqual((holds[0]?.after as { changes: string[] }).changes, [
          '~ /description: "one" → "one, changed"',
        ]);
        const record = (await replicas[0]?.list())?.get('a');
        assert.equal(record?.held?.hash, changed.hash);

        // Approval pins the new definition and clears the hold-back; a later change is held again.
        const previous = await db.transaction(async (tx) =>
          replicas[0]?.pin(tx, changed, 'cli:alice', new Date()),
        );
        assert.equal(previous?.hash, tools[0]?.hash);
        const after = (await replicas[0]?.list())?.get('a');
        assert.equal(after?.hash, changed.hash);
        assert.equal(after?.pinnedBy, 'cli:alice');
        assert.equal(after?.held, undefined);
        assert.equal((await replicas[1]?.load())?.get('a'), changed.hash);
        assert.deepEqual(await replicas[1]?.recordHeld([candidate('a', 'again')]), ['a']);
        // The document changes back to the approved definition: the hold-back is cleared once, audited,
        // and the same change later is recorded (and audited) again.
        const cleared = await Promise.all(
          replicas.map((r) => r.clearHeld([changed, tools[1] as PinCandidate])),
        );
        assert.deepEqual(cleared.flat(), ['a']);
        assert.equal((await replicas[0]?.list())?.get('a')?.held, undefined);
        assert.equal((await audit.query({ action: 'tool.unhold' })).length, 1);
        assert.deepEqual(await replicas[1]?.recordHeld([candidate('a', 'again')]), ['a']);
        assert.equal((await audit.query({ action: 'tool.hold' })).length, 3);
        assert.equal((await audit.verify()).ok, true);
      } finally {
        await opened.close();
      }
    });
  });
