// Issue 25, "Pinned tool definitions": every tool's definition has a hash, recorded when the tool is
// approved; "A changed OpenAPI document holds back exactly the changed tool" (not listed, not callable)
// until someone re-approves it; `toolgate tools` shows the difference; every pin and hold-back is audited.
// Two gateway replicas and the CLI share one SQLite file, as replicas and an operator share a database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main.js';
import { loadConfig } from '../../../src/config/load.js';
import { AuditLog } from '../../../src/gateway/admin/audit-log.js';
import { openGatewayDatabase } from '../../../src/gateway/database.js';
import { CatalogueGenerationRepository } from '../../../src/gateway/storage/catalogue-generation.js';
import { ToolPinRepository } from '../../../src/gateway/storage/tool-pins.js';
import type { Database } from '../../../src/shared/db/types.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  injectToolCall,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

const ORIGINAL = join(process.cwd(), 'test', 'fixtures', 'openapi', 'fixture-backend.yaml');
const NEW_DESCRIPTION = 'Reads one payment (changed by the backend).';
/** The summary gives the tool its description and its title: both change. */
const CHANGE_LINES = [
  `~ /description: "Get a payment" → "${NEW_DESCRIPTION}"`,
  `~ /title: "Get a payment" → "${NEW_DESCRIPTION}"`,
];

async function list(gw: TestGateway): Promise<Map<string, Record<string, unknown>>> {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const tools = (r.json() as { result: { tools: Record<string, unknown>[] } }).result.tools;
  return new Map(tools.map((t) => [String(t.name), t]));
}

/** Lists until `seen` holds (reloads and approvals are picked up at the next refresh), for at most 10 s. */
async function eventually(
  gw: TestGateway,
  seen: (tools: Map<string, Record<string, unknown>>) => boolean,
): Promise<Map<string, Record<string, unknown>>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tools = await list(gw);
    if (seen(tools)) return tools;
    if (Date.now() > deadline) throw new Error(`not seen within 10 s: ${[...tools.keys()].join()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function cli(args: string[], configPath: string) {
  let out = '';
  let err = '';
  const code = await main(
    args,
    { TOOLGATE_CONFIG: configPath, USER: 'olga' },
    {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
    },
  );
  return { code, out, err };
}

describe('pinned tool definitions', () => {
  let backend: FixtureBackend;
  let dir: string;
  let document: string;
  let configPath: string;
  let db: Database;
  let replicas: TestGateway[];
  let audit: AuditLog;

  before(async () => {
    backend = await startFixtureBackend();
    dir = mkdtempSync(join(tmpdir(), 'toolgate-pins-'));
    document = join(dir, 'backend.yaml');
    copyFileSync(ORIGINAL, document);
    const gateway = {
      backends: [fixtureBackendConfig(backend.baseUrl, { openapi: { file: document } })],
      mcp: { approvalRefreshMs: 0 },
    };
    configPath = join(dir, 'config.json');
    writeFileSync(
      configPath,
      JSON.stringify({ dataDir: dir, logging: { level: 'silent' }, gateway }),
    );
    const config = loadConfig({ configPath, env: {} });
    db = await openGatewayDatabase(config.gateway.database, config.dataDir);
    replicas = [
      await startTestGateway(gateway, undefined, { db }),
      await startTestGateway(gateway, undefined, { db }),
    ];
    audit = new AuditLog(db);
  });
  after(async () => {
    for (const gw of replicas) await gw.close();
    await db.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('approved tools without a pin (an upgrade) are pinned on first load, once across replicas, audited', async () => {
    const listed = await list(replicas[0] as TestGateway);
    const pins = await new ToolPinRepository(db).load();
    assert.deepEqual([...pins.keys()].sort(), [...listed.keys()].sort());
    for (const hash of pins.values()) assert.match(hash, /^[0-9a-f]{64}$/);
    const entries = await audit.query({ action: 'tool.pin', limit: 1000 });
    assert.equal(
      entries.length,
      listed.size,
      'one pin entry per tool, though two replicas started',
    );
    assert.equal(entries[0]?.actor.subject, 'gateway');
  });

  test('a changed document holds back exactly the changed tool (listing and calling); the CLI shows the difference; re-approval serves it', async () => {
    const before = await list(replicas[0] as TestGateway);
    const pinsBefore = await new ToolPinRepository(db).load();
    writeFileSync(
      document,
      readFileSync(ORIGINAL, 'utf8').replace(
        'summary: Get a payment',
        `summary: ${NEW_DESCRIPTION}`,
      ),
    );
    await new CatalogueGenerationRepository(db).bump('test');

    for (const gw of replicas) {
      const tools = await eventually(gw, (t) => !t.has('getPayment'));
      // Every other tool is served as before.
      assert.deepEqual(
        [...tools.keys()],
        [...before.keys()].filter((n) => n !== 'getPayment'),
      );
      for (const [name, tool] of tools) assert.deepEqual(tool, before.get(name));
      // Not callable: it looks unknown, as a tool that does not exist.
      const call = await injectToolCall(gw, 'getPayment', { paymentId: 'p1' });
      const error = (call.body as { error?: { message: string } }).error;
      assert.match(error?.message ?? '', /Unknown tool|unknown tool|not found/i);
      const other = await injectToolCall(gw, 'test_simple_text', {});
      assert.equal((other.body as { error?: unknown }).error, undefined);
    }

    // The hold-back is recorded once (two replicas saw it), with the difference.
    const holds = await audit.query({ action: 'tool.hold' });
    assert.equal(holds.length, 1);
    assert.equal(holds[0]?.target.id, 'getPayment');
    assert.deepEqual((holds[0]?.after as { changes: string[] }).changes, CHANGE_LINES);

    // `toolgate tools list` marks it and prints the difference; --json carries it as JSON pointers.
    const text = await cli(['tools', 'list'], configPath);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /getPayment\s+fixture\s+public\s+yes \(config\), held back/);
    assert.match(text.out, /toolgate tools approve getPayment/);
    assert.ok(
      text.out.includes(`~ /description: "Get a payment" → "${NEW_DESCRIPTION}"`),
      text.out,
    );
    assert.doesNotMatch(text.out, /cancelPayment.*held back/);
    const json = await cli(['tools', 'list', '--json'], configPath);
    const rows = (JSON.parse(json.out) as { tools: Record<string, unknown>[] }).tools;
    const held = rows.filter((r) => r.heldBack === true);
    assert.deepEqual(
      held.map((r) => r.name),
      ['getPayment'],
    );
    assert.deepEqual(held[0]?.changes, [
      { op: 'changed', path: '/description', before: 'Get a payment', after: NEW_DESCRIPTION },
      { op: 'changed', path: '/title', before: 'Get a payment', after: NEW_DESCRIPTION },
    ]);
    assert.equal(held[0]?.pinnedHash, pinsBefore.get('getPayment'));

    // Re-approval pins the new definition; every replica serves the tool again, with its new description.
    const approve = await cli(['tools', 'approve', 'getPayment'], configPath);
    assert.equal(approve.code, 0, approve.err);
    assert.doesNotMatch(approve.out, /held back/);
    for (const gw of replicas) {
      const tools = await eventually(gw, (t) => t.has('getPayment'));
      assert.equal(tools.get('getPayment')?.description, NEW_DESCRIPTION);
      const call = await injectToolCall(gw, 'getPayment', { paymentId: 'p1' });
      assert.equal((call.body as { error?: unknown }).error, undefined);
    }
    const pinsAfter = await new ToolPinRepository(db).load();
    assert.notEqual(pinsAfter.get('getPayment'), pinsBefore.get('getPayment'));
    assert.equal(pinsAfter.get('getPayment'), held[0]?.definitionHash);
    for (const [name, hash] of pinsBefore)
      if (name !== 'getPayment') assert.equal(pinsAfter.get(name), hash, name);
    const repin = (await audit.query({ action: 'tool.pin', actor: 'cli:olga' }))[0];
    assert.ok(repin, 'the re-approval is audited');
    assert.deepEqual(repin.before, {
      name: 'getPayment',
      definitionHash: pinsBefore.get('getPayment'),
    });
    assert.deepEqual((repin.after as { changes: string[] }).changes, CHANGE_LINES);
    // The audit chain still verifies with the data plane's entries in it.
    assert.equal((await audit.verify()).ok, true);
  });
});
