// Tracker issue 13: the catalogue is rebuilt from changed OpenAPI documents without a restart. A reload
// is asked for through the shared database (the catalogue generation that `toolgate tools reload` and the
// document watch raise); every gateway on that database rebuilds in the background at its next refresh,
// and one whose documents no longer build keeps serving the catalogue it has.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueGenerationRepository } from '../../../src/gateway/storage/catalogue-generation.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

const ORIGINAL = join(process.cwd(), 'test', 'fixtures', 'openapi', 'fixture-backend.yaml');

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

/** Lists until `seen` holds (the reload runs in the background), for at most 10 s. */
async function eventually(
  gw: TestGateway,
  seen: (tools: Map<string, Record<string, unknown>>) => boolean,
) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const tools = await list(gw);
    if (seen(tools)) return tools;
    if (Date.now() > deadline) throw new Error(`not seen within 10 s: ${[...tools.keys()].join()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('catalogue reload', () => {
  let backend: FixtureBackend;
  let scratch: string;
  let document: string;
  before(async () => {
    backend = await startFixtureBackend();
    scratch = mkdtempSync(join(tmpdir(), 'toolgate-reload-'));
    document = join(scratch, 'backend.yaml');
  });
  after(async () => {
    await backend.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const start = (mcp: Record<string, unknown>) =>
    startTestGateway({
      backends: [fixtureBackendConfig(backend.baseUrl, { openapi: { file: document } })],
      mcp: { approvalRefreshMs: 0, ...mcp },
    });

  test('toolgate tools reload (the generation) makes a running gateway serve the changed document; a broken one is not served', async () => {
    copyFileSync(ORIGINAL, document);
    const gw = await start({});
    try {
      assert.equal((await list(gw)).get('getPayment')?.description, 'Get a payment');
      const changed = readFileSync(ORIGINAL, 'utf8').replace(
        'summary: Get a payment',
        'summary: Reads one payment (reloaded).',
      );
      writeFileSync(document, changed);
      // The document alone changes nothing: the running catalogue is rebuilt only when asked.
      assert.equal((await list(gw)).get('getPayment')?.description, 'Get a payment');

      const generations = new CatalogueGenerationRepository(gw.db);
      const served = (await list(gw)).size;
      assert.equal(await generations.bump('test'), 1);
      // The changed tool is held back until re-approved (issue 25, pinned tool definitions; the
      // re-approval that serves the new description: test/gateway/catalogue/pinned-definitions.test.ts).
      const reloaded = await eventually(gw, (t) => !t.has('getPayment'));
      assert.equal(reloaded.size, served - 1);

      writeFileSync(document, 'openapi: 3.1.0\npaths: [not, a, map\n');
      assert.equal(await generations.bump('test'), 2);
      const deadline = Date.now() + 10_000;
      while (!gw.logs.some((l) => l.includes('catalogue reload failed'))) {
        if (Date.now() > deadline) throw new Error('no reload failure logged');
        await list(gw);
        await new Promise((r) => setTimeout(r, 20));
      }
      const kept = await list(gw);
      assert.equal(kept.has('getPayment'), false);
      assert.equal(kept.size, reloaded.size);
    } finally {
      await gw.close();
    }
  });

  test('gateway.mcp.watchDocuments: saving the document is enough', async () => {
    copyFileSync(ORIGINAL, document);
    const gw = await start({ watchDocuments: true });
    try {
      assert.equal((await list(gw)).has('getPayment'), true);
      const renamed = readFileSync(ORIGINAL, 'utf8').replace(
        'operationId: getPayment',
        'operationId: readPayment',
      );
      // As editors do: write a new file and rename it over the old one.
      writeFileSync(`${document}.tmp`, renamed);
      copyFileSync(`${document}.tmp`, document);
      const tools = await eventually(gw, (t) => t.has('readPayment'));
      assert.equal(tools.has('getPayment'), false);
      assert.ok((await new CatalogueGenerationRepository(gw.db).current()) >= 1);
    } finally {
      await gw.close();
    }
  });
});
