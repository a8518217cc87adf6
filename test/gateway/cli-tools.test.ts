// `toolgate tools list|approve|revoke`: approval state stored in the gateway database (SQLite file here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.js';
import { NO_STORE_HINT } from '../../src/cli/store-location.js';

interface ToolRow {
  name: string;
  backend: string;
  securityClass: string;
  approved: boolean;
  source: string;
}

async function run(
  args: string[],
  dir: string,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(
    args,
    { TOOLGATE_CONFIG: join(dir, 'config.json') },
    {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
    },
  );
  return { code, out, err };
}

test('tools list shows the default backends (payment service) with classes; approve/revoke persist', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-cli-'));
  try {
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ dataDir: dir, logging: { level: 'silent' } }),
    );
    // No store yet: list says where it looked (approve/revoke may start one in the data folder).
    const none = await run(['tools', 'list'], dir);
    assert.equal(none.code, 1);
    assert.equal(
      none.err,
      `toolgate tools: no store at ${join(dir, 'gateway.db')}: ${NO_STORE_HINT}\n`,
    );
    assert.equal(existsSync(join(dir, 'gateway.db')), false, 'list created nothing');
    assert.equal((await run(['tools', 'approve', 'createPayment'], dir)).code, 0);

    const list = await run(['tools', 'list', '--json'], dir);
    assert.equal(list.code, 0, list.err);
    const listed = JSON.parse(list.out) as { store: Record<string, string> };
    assert.deepEqual(listed.store, { kind: 'sqlite', path: join(dir, 'gateway.db') });
    const tools = (JSON.parse(list.out) as { tools: ToolRow[] }).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.equal(byName.get('createPayment')?.approved, true);
    assert.equal(byName.get('createPayment')?.source, 'stored');
    assert.equal(byName.get('fetchPaymentFees')?.source, 'config');
    assert.equal(byName.get('getMyAccountBalance')?.backend, 'accounts');
    assert.equal(byName.get('getMyAccountBalance')?.securityClass, 'user-scoped');

    const revoke = await run(['tools', 'revoke', 'cancelPayment', '--json'], dir);
    assert.equal(revoke.code, 0, revoke.err);
    assert.deepEqual(
      (JSON.parse(revoke.out) as { tools: ToolRow[] }).tools.map((t) => [
        t.name,
        t.approved,
        t.source,
      ]),
      [['cancelPayment', false, 'stored']],
    );
    const again = JSON.parse((await run(['tools', 'list', '--json'], dir)).out) as {
      tools: ToolRow[];
    };
    assert.equal(again.tools.find((t) => t.name === 'cancelPayment')?.approved, false);
    const approve = await run(['tools', 'approve', 'cancelPayment'], dir);
    assert.match(approve.out, /cancelPayment\s+payments\s+user-scoped\s+yes \(stored\)/);

    const unknown = await run(['tools', 'approve', 'noSuchTool'], dir);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown tool\(s\): noSuchTool/);
    assert.equal((await run(['tools', 'frobnicate'], dir)).code, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
