// tools/list shows compact schemas (issue 13): the demo catalogue's whole tools array stays within 60 KB at
// every revision from 2025-06-18 on, `gateway.mcp.schemaView: full` shows the schemas as validated, and a
// constraint the compact view leaves out is still enforced on tools/call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

/** 60 KB, read as 60,000 bytes (the stricter reading). */
const BUDGET = 60_000;

let backend: FixtureBackend;
let demo: TestGateway;
let demoFull: TestGateway;
let fixture: TestGateway;

before(async () => {
  backend = await startFixtureBackend();
  // The demo catalogue: the default gateway.backends (listing never reaches the payment service).
  demo = await startTestGateway({});
  demoFull = await startTestGateway({ mcp: { schemaView: 'full' } });
  fixture = await startTestGateway({ backends: [fixtureBackendConfig(backend.baseUrl)] });
});
after(async () => {
  await Promise.all([demo.close(), demoFull.close(), fixture.close()]);
  await backend.close();
});

interface ListedTool {
  name: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

async function rpc(
  gw: TestGateway,
  version: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const modern = version === '2026-07-28';
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': version,
      ...(modern ? { 'mcp-method': method } : {}),
      ...(modern && typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: modern
        ? {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': version,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          }
        : params,
    }),
  });
  assert.equal(r.statusCode, 200, r.body);
  const body = JSON.parse(r.body) as { result: Record<string, unknown> };
  return body.result;
}

async function listTools(gw: TestGateway, version: string): Promise<ListedTool[]> {
  const result = await rpc(gw, version, 'tools/list');
  assert.equal(result.nextCursor, undefined, 'one page');
  return result.tools as ListedTool[];
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

test('demo catalogue: the whole tools/list is at most 60 KB at 2025-06-18, 2025-11-25 and 2026-07-28', async () => {
  for (const version of ['2025-06-18', '2025-11-25', '2026-07-28']) {
    const tools = await listTools(demo, version);
    assert.equal(tools.length, 11);
    const size = bytes(tools);
    assert.ok(size <= BUDGET, `${version}: tools/list is ${size} bytes`);
    const create = tools.find((t) => t.name === 'createPayment');
    assert.ok(create?.inputSchema.$defs, `${version}: createPayment shares $defs`);
  }
  const legacy = await listTools(demo, '2025-03-26');
  assert.ok(bytes(legacy) <= BUDGET, `2025-03-26: ${bytes(legacy)} bytes`);
  assert.equal(
    legacy.some((t) => t.outputSchema !== undefined),
    false,
    '2025-03-26 has no outputSchema',
  );
});

test('gateway.mcp.schemaView full: tools/list shows the schemas exactly as the gateway validates them', async () => {
  const compact = await listTools(demo, '2025-11-25');
  const full = await listTools(demoFull, '2025-11-25');
  assert.ok(bytes(full) > 4 * bytes(compact), `${bytes(full)} vs ${bytes(compact)}`);
  const create = full.find((t) => t.name === 'createPayment');
  assert.equal(create?.inputSchema.$defs, undefined);
  assert.ok(create?.outputSchema, 'every outputSchema is shown');
  assert.match(JSON.stringify(create?.inputSchema), /"maxLength":35/);
});

test('a maxLength the compact view leaves out is still enforced: tools/call refuses, the backend is not called', async () => {
  for (const version of ['2025-06-18', '2026-07-28']) {
    const tools = await listTools(fixture, version);
    const create = tools.find((t) => t.name === 'createPayment');
    const key = (create?.inputSchema.properties as Record<string, Record<string, unknown>>)[
      'Idempotency-Key'
    ];
    assert.deepEqual(key, { type: 'string' }, 'maxLength 64 is not shown');

    const before = backend.requests.length;
    const refused = await rpc(fixture, version, 'tools/call', {
      name: 'createPayment',
      arguments: {
        'Idempotency-Key': 'k'.repeat(65),
        body: { amount: { value: '1.00', currency: 'EUR' }, payee: 'Alice' },
      },
    });
    assert.equal(refused.isError, true);
    const text = (refused.content as { text: string }[])[0]?.text ?? '';
    assert.match(text, /argument Idempotency-Key: must NOT have more than 64 characters/);
    assert.match(text, /rule: maxLength/);
    assert.equal(backend.requests.length, before, 'the backend was not called');

    const accepted = await rpc(fixture, version, 'tools/call', {
      name: 'createPayment',
      arguments: {
        'Idempotency-Key': 'k'.repeat(64),
        body: { amount: { value: '1.00', currency: 'EUR' }, payee: 'Alice' },
      },
    });
    assert.equal(accepted.isError, undefined, JSON.stringify(accepted));
    assert.equal(backend.requests.length, before + 1);
  }
});
