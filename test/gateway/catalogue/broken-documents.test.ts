// A structurally broken OpenAPI document must not take tools down: `paths: 42`, `null` or `[]` is not valid
// OpenAPI and `paths: {}` leaves its backend without tools. Saved under gateway.mcp.watchDocuments, every
// replica refuses it, says why and keeps serving its catalogue; at startup it is a startup error; a reload
// asked for without a check (an unchecked generation bump) is refused by each replica unless forced.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { CatalogueGenerationRepository } from '../../../src/gateway/storage/catalogue-generation.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import {
  FIXTURE_DOCUMENT,
  startFixtureBackend,
  type FixtureBackend,
} from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  OPEN_GATEKEEPER,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

const ORIGINAL = readFileSync(FIXTURE_DOCUMENT, 'utf8');
const SCHEMA_REFUSAL = /the document does not follow the OpenAPI schema: \/paths must be object/;
const NO_TOOLS = /backend fixture: its OpenAPI document yields no tools/;

/** The fixture document (valid `openapi` and `info`) with another `paths`. */
function withPaths(paths: unknown): string {
  const document = parse(ORIGINAL) as Record<string, unknown>;
  return stringify({ ...document, paths });
}

const BROKEN: readonly {
  readonly name: string;
  readonly paths: unknown;
  readonly reason: RegExp;
}[] = [
  { name: 'paths: 42', paths: 42, reason: SCHEMA_REFUSAL },
  { name: 'paths: null', paths: null, reason: SCHEMA_REFUSAL },
  { name: 'paths: []', paths: [], reason: SCHEMA_REFUSAL },
  { name: 'paths: {}', paths: {}, reason: NO_TOOLS },
];

async function toolNames(gw: TestGateway): Promise<string[]> {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const tools = (r.json() as { result: { tools: { name: string }[] } }).result.tools;
  return tools.map((t) => t.name).sort();
}

/** Waits (at most 10 s) until `gw` has logged a line after the first `from` that matches `pattern`. */
async function logged(gw: TestGateway, from: number, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = gw.logs.slice(from).find((l) => pattern.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline)
      throw new Error(`not logged within 10 s: ${pattern}\n${gw.logs.slice(from).join('')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('structurally broken OpenAPI documents', () => {
  let backend: FixtureBackend;
  let scratch: string;
  let document: string;
  before(async () => {
    backend = await startFixtureBackend();
    scratch = mkdtempSync(join(tmpdir(), 'toolgate-broken-'));
    document = join(scratch, 'backend.yaml');
  });
  after(async () => {
    await backend.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const settings = (mcp: Record<string, unknown> = {}) => ({
    backends: [fixtureBackendConfig(backend.baseUrl, { openapi: { file: document } })],
    mcp: { approvalRefreshMs: 0, ...mcp },
  });

  test('watchDocuments: every replica refuses the save, says why and keeps its tools', async () => {
    writeFileSync(document, ORIGINAL);
    const db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    const replicas = [
      await startTestGateway(settings({ watchDocuments: true }), OPEN_GATEKEEPER, { db }),
      await startTestGateway(settings({ watchDocuments: true }), OPEN_GATEKEEPER, { db }),
    ];
    try {
      const served = await toolNames(replicas[0] as TestGateway);
      assert.equal(served.length, 8);
      for (const broken of BROKEN) {
        const from = replicas.map((r) => r.logs.length);
        writeFileSync(document, withPaths(broken.paths));
        for (const [i, replica] of replicas.entries()) {
          const line = await logged(
            replica,
            from[i] ?? 0,
            /catalogue does not build or is refused: keeping the current one/,
          );
          assert.match(line, broken.reason, `${broken.name}, replica ${i}`);
          assert.deepEqual(await toolNames(replica), served, `${broken.name}, replica ${i}`);
        }
      }
      // Saving most operations away is refused as well (gateway.mcp.reloadMaxLoss, 50 %).
      const [first] = Object.entries(parse(ORIGINAL).paths as Record<string, unknown>);
      const from = replicas.map((r) => r.logs.length);
      writeFileSync(document, withPaths(Object.fromEntries([first ?? []])));
      for (const [i, replica] of replicas.entries())
        assert.match(
          await logged(replica, from[i] ?? 0, /keeping the current one/),
          /the reload would remove \d+ of 8 tools/,
        );
      assert.equal(await new CatalogueGenerationRepository(db).current(), 0, 'no reload asked');
      // The watch still works: a good save reloads every replica.
      writeFileSync(
        document,
        ORIGINAL.replace('operationId: getPayment', 'operationId: readPayment'),
      );
      for (const replica of replicas) {
        const deadline = Date.now() + 10_000;
        while (!(await toolNames(replica)).includes('readPayment')) {
          if (Date.now() > deadline) throw new Error('the good save was not reloaded');
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    } finally {
      for (const replica of replicas) await replica.close();
      await db.close();
    }
  });

  test('at startup each is a startup error naming the backend and the problem', async () => {
    for (const broken of BROKEN) {
      writeFileSync(document, withPaths(broken.paths));
      await assert.rejects(startTestGateway(settings()), (error: Error) => {
        assert.match(error.message, broken.reason, broken.name);
        assert.match(error.message, /backend fixture/, broken.name);
        return true;
      });
    }
  });

  test('a reload asked for without a check is refused by the replica unless forced', async () => {
    writeFileSync(document, ORIGINAL);
    const db: Database = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    const gw = await startTestGateway(settings(), OPEN_GATEKEEPER, { db });
    try {
      const generations = new CatalogueGenerationRepository(db);
      writeFileSync(document, withPaths({}));
      let from = gw.logs.length;
      await generations.bump('test');
      await toolNames(gw);
      const line = await logged(
        gw,
        from,
        /catalogue reload failed: serving the previous catalogue/,
      );
      assert.match(line, NO_TOOLS);
      assert.equal((await toolNames(gw)).length, 8);
      from = gw.logs.length;
      await generations.bump('test', { forced: true });
      await toolNames(gw);
      await logged(gw, from, /catalogue reloaded/);
      assert.deepEqual(await toolNames(gw), [], 'forced: served as asked');
    } finally {
      await gw.close();
      await db.close();
    }
  });
});
