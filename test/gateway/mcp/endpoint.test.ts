// The MCP endpoint over HTTP (fastify inject) in front of a real fixture backend on port 0. Test names cite
// the specification section they check (revision/page#section).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  OPEN_GATEKEEPER,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

let backend: FixtureBackend;
let gw: TestGateway;

before(async () => {
  backend = await startFixtureBackend();
  gw = await startTestGateway({
    backends: [fixtureBackendConfig(backend.baseUrl)],
    mcp: { allowedOrigins: ['https://app.example.com'], pageSize: 4 },
    bodyLimitBytes: 4096,
  });
});
after(async () => {
  await gw.close();
  await backend.close();
});

interface Reply {
  status: number;
  headers: Record<string, unknown>;
  body: Record<string, unknown> & {
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
  raw: string;
}

async function post(payload: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return {
    status: r.statusCode,
    headers: r.headers,
    body: r.body ? JSON.parse(r.body) : {},
    raw: r.body,
  };
}
const legacy = { 'mcp-protocol-version': '2025-11-25' };
const SUPPORTED = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const call = (name: string, args: unknown, headers: Record<string, string> = legacy) =>
  post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }, headers);
const text = (r: Reply) => (r.body.result?.content as { text: string }[])[0]?.text ?? '';

describe('legacy revisions (2025-03-26, 2025-06-18, 2025-11-25)', () => {
  test('2025-11-25/basic/lifecycle#version-negotiation: a supported version is echoed, no session id', async () => {
    for (const v of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const r = await post({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: v, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.result?.protocolVersion, v);
      assert.deepEqual(r.body.result?.capabilities, { tools: { listChanged: false } });
      assert.equal(r.headers['mcp-session-id'], undefined);
    }
  });

  test('2025-11-25/basic/lifecycle#version-negotiation: an unknown version gets the latest we support', async () => {
    const r = await post({
      jsonrpc: '2.0',
      id: 'a',
      method: 'initialize',
      params: { protocolVersion: '2099-01-01', capabilities: {} },
    });
    assert.equal(r.body.id, 'a');
    assert.equal(r.body.result?.protocolVersion, '2025-11-25');
  });

  test('2025-11-25/basic/utilities/ping: ping answers an empty result', async () => {
    const r = await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, legacy);
    assert.deepEqual(r.body, { jsonrpc: '2.0', id: 3, result: {} });
  });

  test('2025-11-25/basic/transports#sending-messages-to-the-server: notifications get 202 and no body', async () => {
    const r = await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, legacy);
    assert.equal(r.status, 202);
    assert.equal(r.raw, '');
  });

  test('2025-06-18/basic/transports#protocol-version-header: an unsupported header value → 400', async () => {
    const r = await post(
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    assert.equal(r.status, 400);
    assert.equal(r.body.id, 4);
    assert.equal(r.body.error?.code, -32022);
  });

  test('JSON-RPC 2.0#error_object: parse error -32700 with id null', async () => {
    const r = await post('{"jsonrpc":"2.0",', legacy);
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the body is not valid JSON' },
    });
  });

  test('JSON-RPC 2.0#error_object: invalid request -32600 echoes a readable id', async () => {
    const r = await post({ jsonrpc: '1.0', id: 9, method: 'ping' }, legacy);
    assert.equal(r.status, 400);
    assert.equal(r.body.id, 9);
    assert.equal(r.body.error?.code, -32600);
    const noMethod = await post({ jsonrpc: '2.0', id: 10 }, legacy);
    assert.equal(noMethod.body.error?.code, -32600);
    const nullId = await post({ jsonrpc: '2.0', id: null, method: 'ping' }, legacy);
    assert.equal(nullId.body.error?.code, -32600);
    assert.equal(nullId.body.id, null);
  });

  test('JSON-RPC 2.0#error_object: unknown method -32601', async () => {
    const r = await post({ jsonrpc: '2.0', id: 11, method: 'resources/list' }, legacy);
    assert.equal(r.body.error?.code, -32601);
    assert.equal(r.body.id, 11);
  });

  test('2025-03-26/basic/transports#sending-messages-to-the-server: batches are processed', async () => {
    const r = await post(
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ],
      { 'mcp-protocol-version': '2025-03-26' },
    );
    assert.equal(r.status, 200);
    const list = r.body as unknown as { id: number; result?: unknown; error?: { code: number } }[];
    assert.equal(list.length, 2);
    assert.deepEqual(list[0], { jsonrpc: '2.0', id: 1, result: {} });
    assert.equal(list[1]?.error?.code, -32601);
    const onlyNotes = await post([{ jsonrpc: '2.0', method: 'notifications/initialized' }]);
    assert.equal(onlyNotes.status, 202);
    const initInBatch = await post([
      { jsonrpc: '2.0', id: 5, method: 'initialize', params: { protocolVersion: '2025-03-26' } },
    ]);
    assert.equal(
      (initInBatch.body as unknown as { error: { code: number } }[])[0]?.error.code,
      -32600,
    );
  });

  test('2025-06-18/changelog: JSON-RPC batching removed → -32600 for 2025-06-18 and later', async () => {
    for (const v of ['2025-06-18', '2025-11-25']) {
      const r = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }], {
        'mcp-protocol-version': v,
      });
      assert.equal(r.status, 400);
      assert.equal(r.body.error?.code, -32600);
    }
    const empty = await post([], { 'mcp-protocol-version': '2025-03-26' });
    assert.equal(empty.body.error?.code, -32600);
  });
});

describe('transport checks', () => {
  test('2025-11-25/basic/transports#security-warning: a foreign Origin → 403 with a JSON-RPC error', async () => {
    const r = await post(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { origin: 'http://evil.example.com' },
    );
    assert.equal(r.status, 403);
    assert.equal(r.body.id, null);
    assert.ok(r.body.error);
    for (const ok of ['https://app.example.com', 'http://localhost:6274', 'http://127.0.0.1']) {
      assert.equal(
        (await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: ok })).status,
        200,
        ok,
      );
    }
  });

  test('2025-11-25/basic/transports#listening-for-messages-from-the-server: GET and DELETE → 405 with Allow', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const r = await gw.app.inject({
        method,
        url: '/mcp',
        headers: { accept: 'text/event-stream' },
      });
      assert.equal(r.statusCode, 405);
      assert.equal(r.headers.allow, 'POST');
    }
  });

  test('2025-11-25/basic/transports#sending-messages-to-the-server: Accept must list JSON and SSE → 406', async () => {
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json' });
    assert.equal(r.status, 406);
    assert.equal(
      (await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: '*/*' })).status,
      200,
    );
  });

  test('Content-Type other than application/json → 415; body over the limit → 413', async () => {
    const r = await post(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { 'content-type': 'text/plain' },
    );
    assert.equal(r.status, 415);
    const big = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(8000) },
    });
    assert.equal(big.status, 413);
    assert.equal(big.body.jsonrpc, '2.0');
  });
});

describe('tools', () => {
  test('2025-11-25/server/tools#listing-tools: approved tools with cursor pagination', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await post(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: cursor ? { cursor } : {} },
        legacy,
      );
      const result = r.body.result as { tools: { name: string }[]; nextCursor?: string };
      assert.ok(result.tools.length <= 4);
      names.push(...result.tools.map((t) => t.name));
      cursor = result.nextCursor;
    } while (cursor);
    assert.deepEqual(names, [
      'cancelPayment',
      'createPayment',
      'fetchBankDetails',
      'getMyAccountBalance',
      'getPayment',
      'slowOperation',
      'test_error_handling',
      'test_simple_text',
    ]);
    const bad = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'zzz' } },
      legacy,
    );
    assert.equal(bad.body.error?.code, -32602);
  });

  test('2025-06-18/server/tools#tool: title and outputSchema present; 2025-03-26 shape omits them', async () => {
    const current = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, legacy);
    const tools = (current.body.result as { tools: Record<string, unknown>[] }).tools;
    const create = tools.find((t) => t.name === 'createPayment');
    assert.equal(create?.title, 'Create a payment');
    assert.equal((create?.outputSchema as { type: string }).type, 'object');
    const old = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-protocol-version': '2025-03-26' },
    );
    const oldCreate = (old.body.result as { tools: Record<string, unknown>[] }).tools.find(
      (t) => t.name === 'createPayment',
    );
    assert.equal(oldCreate?.title, undefined);
    assert.equal(oldCreate?.outputSchema, undefined);
    assert.equal((oldCreate?.annotations as { title: string }).title, 'Create a payment');
  });

  test('injected credentials and reserved headers are absent from inputSchema', async () => {
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, legacy);
    const all = JSON.stringify(r.body.result);
    const more = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { cursor: (r.body.result as { nextCursor: string }).nextCursor },
      },
      legacy,
    );
    for (const s of [all, JSON.stringify(more.body.result)]) {
      assert.equal(/"api-key"|"Authorization"|"X-User-Id"/.test(s), false);
    }
  });

  test('2025-11-25/server/tools#calling-tools: 2xx JSON → structuredContent and the same JSON as text', async () => {
    const r = await call('getPayment', { paymentId: 'PO 7/8' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.result?.structuredContent, {
      id: 'PO 7/8',
      status: 'INITIATED',
      amount: { value: '10.00', currency: 'EUR' },
    });
    assert.deepEqual(JSON.parse(text(r)), r.body.result?.structuredContent);
    assert.equal(backend.requests.at(-1)?.url, '/api/v1/payments/PO%207%2F8');
  });

  test('2025-06-18/server/tools#output-schema: a 2xx body that breaks the outputSchema → isError, no structuredContent', async () => {
    const r = await call('getPayment', { paymentId: 'broken' });
    assert.equal(r.body.result?.isError, true);
    assert.equal(r.body.result?.structuredContent, undefined);
    assert.match(text(r), /does not match the operation's declared response schema/);
    assert.match(text(r), /missing required property "amount"/);
    assert.match(text(r), /field status: must be one of/);
  });

  test('2025-11-25/server/tools#error-handling: unknown tool → -32602', async () => {
    const r = await call('noSuchTool', {});
    assert.equal(r.body.error?.code, -32602);
    assert.match(r.body.error?.message ?? '', /Unknown tool: noSuchTool/);
  });

  test('2025-11-25/server/tools#error-handling: invalid arguments → isError naming argument and rule, no backend call', async () => {
    const before = backend.requests.length;
    const r = await call('createPayment', { body: { amount: { value: '1,5', currency: 'EUR' } } });
    assert.equal(r.body.result?.isError, true);
    assert.match(text(r), /missing required property "payee" \(rule: required\)/);
    assert.match(text(r), /argument body\.amount\.value: .*\(rule: pattern\)/);
    assert.equal(backend.requests.length, before);
  });

  test('4xx from the backend → isError with status and problem details', async () => {
    const r = await call('getPayment', { paymentId: 'missing' });
    assert.equal(r.body.result?.isError, true);
    assert.match(text(r), /HTTP 404 Not Found.*No payment missing/);
    assert.equal(text(r).includes('127.0.0.1'), false);
  });

  test('client headers are never passed through; X-Request-Id and traceparent are propagated', async () => {
    const r = await call(
      'createPayment',
      {
        body: { amount: { value: '1.50', currency: 'EUR' }, payee: 'Bob' },
        'Idempotency-Key': 'k1',
      },
      {
        ...legacy,
        authorization: 'Bearer secret.jwt.value',
        'x-user-id': 'admin',
        'x-toolgate-subject': 'root',
        'ocp-apim-subscription-key': 'tgk_secret',
        cookie: 'sid=1',
        'x-request-id': 'req-abc-123',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
    );
    assert.equal(r.body.result?.isError, undefined, text(r));
    const seen = backend.requests.at(-1);
    assert.ok(seen);
    for (const h of ['authorization', 'x-toolgate-subject', 'ocp-apim-subscription-key', 'cookie'])
      assert.equal(seen.headers[h], undefined, h);
    // The identity the backend gets is the gateway's (headers mode: this caller is anonymous).
    assert.equal(seen.headers['x-user-id'], 'anonymous');
    assert.equal(seen.headers['x-request-id'], 'req-abc-123');
    assert.match(
      String(seen.headers.traceparent),
      /^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/,
    );
    assert.equal(seen.headers['idempotency-key'], 'k1');
    assert.equal(
      seen.headers['api-key'],
      'bank-key-0000-secret-1234',
      'backend credentials: on every call',
    );
  });

  test('injected credentials reach the backend; the caller never supplies them', async () => {
    const r = await call('fetchBankDetails', { body: { iban: 'DE89370400440532013000' } });
    assert.deepEqual(r.body.result?.structuredContent, {
      name: 'Fixture Bank',
      bic: 'FIXTDEFFXXX',
    });
    assert.equal(backend.requests.at(-1)?.headers['api-key'], 'bank-key-0000-secret-1234');
  });

  test('gateway.md#authentication rule 6: user-scoped tool without a user → HTTP 401, JSON-RPC error, no backend call', async () => {
    const before = backend.requests.length;
    const r = await call('getMyAccountBalance', {});
    assert.equal(r.status, 401);
    assert.equal(r.body.id, 7);
    assert.equal(r.body.error?.code, -31001);
    assert.match(String(r.headers['www-authenticate']), /^Bearer/);
    assert.equal(backend.requests.length, before);
  });

  test('a traceparent is generated when the caller sends none', async () => {
    await call('test_simple_text', {});
    assert.match(
      String(backend.requests.at(-1)?.headers.traceparent),
      /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/,
    );
    assert.ok(backend.requests.at(-1)?.headers['x-request-id']);
  });
});

describe('2026-07-28 (stateless revision)', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const modern = (
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) =>
    post(
      { jsonrpc: '2.0', id: 21, method, params: { ...params, _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...headers },
    );

  test('2026-07-28/server/discover: supported versions, capabilities, serverInfo, resultType', async () => {
    const r = await modern('server/discover');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.result?.supportedVersions, SUPPORTED);
    assert.deepEqual(r.body.result?.capabilities, { tools: {} });
    assert.equal((r.body.result?.serverInfo as { name: string }).name, 'toolgate');
    assert.equal(r.body.result?.resultType, 'complete');
  });

  test('2026-07-28/server/utilities/caching#cacheable-results: discover is public, with a ttlMs', async () => {
    const r = await modern('server/discover');
    assert.equal(r.body.result?.cacheScope, 'public');
    assert.equal(r.body.result?.ttlMs, 300_000);
  });

  test('2026-07-28/server/utilities/caching#cacheable-results: every tools/list page carries ttlMs (the approval refresh) and one cacheScope', async () => {
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await modern('tools/list', cursor === undefined ? {} : { cursor });
      assert.equal(r.status, 200);
      assert.equal(r.body.result?.ttlMs, 5000, 'gateway.mcp.approvalRefreshMs (default)');
      assert.equal(r.body.result?.cacheScope, 'public', 'a subscription that sees every tool');
      cursor = r.body.result?.nextCursor as string | undefined;
      pages++;
    } while (cursor !== undefined);
    assert.ok(pages > 1, 'the fixture catalogue spans several pages of 4');
  });

  test('2026-07-28/basic/index#result-metadata: every result names the server in _meta', async () => {
    for (const [method, params, headers] of [
      ['server/discover', {}, {}],
      ['tools/list', {}, {}],
      [
        'tools/call',
        { name: 'test_simple_text', arguments: {} },
        { 'mcp-name': 'test_simple_text' },
      ],
    ] as const) {
      const r = await modern(method, params, headers);
      assert.deepEqual(
        (r.body.result?._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo'],
        { name: 'toolgate', version: '0.1.0' },
        method,
      );
    }
  });

  test('2026-07-28: legacy results carry none of the stateless fields', async () => {
    const r = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, legacy);
    assert.equal(r.body.result?.ttlMs, undefined);
    assert.equal(r.body.result?.cacheScope, undefined);
    assert.equal(r.body.result?.resultType, undefined);
    assert.equal(r.body.result?._meta, undefined);
  });

  test('2026-07-28/basic/index#resulttype: tools/list and tools/call results carry resultType complete', async () => {
    const list = await modern('tools/list');
    assert.equal(list.body.result?.resultType, 'complete');
    assert.ok(Array.isArray(list.body.result?.tools));
    const c = await modern(
      'tools/call',
      { name: 'test_simple_text', arguments: {} },
      { 'mcp-name': 'test_simple_text' },
    );
    assert.equal(c.body.result?.resultType, 'complete');
    assert.deepEqual(c.body.result?.structuredContent, {
      text: 'This is a simple text response for testing.',
    });
  });

  test('2026-07-28/basic/transports/streamable-http#server-validation: missing Mcp-Method → 400 -32020', async () => {
    const r = await post(
      { jsonrpc: '2.0', id: 22, method: 'tools/list', params: { _meta: meta } },
      { 'mcp-protocol-version': '2026-07-28' },
    );
    assert.equal(r.status, 400);
    assert.equal(r.body.error?.code, -32020);
    assert.equal(r.body.id, 22);
  });

  test('2026-07-28/basic/transports/streamable-http#server-validation: header/body mismatches → 400 -32020', async () => {
    const wrongMethod = await modern('tools/list', {}, { 'mcp-method': 'tools/call' });
    assert.equal(wrongMethod.status, 400);
    assert.equal(wrongMethod.body.error?.code, -32020);
    const noName = await modern('tools/call', { name: 'test_simple_text', arguments: {} });
    assert.equal(noName.body.error?.code, -32020);
    const wrongName = await modern(
      'tools/call',
      { name: 'test_simple_text', arguments: {} },
      { 'mcp-name': 'getPayment' },
    );
    assert.equal(wrongName.body.error?.code, -32020);
    const wrongVersion = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } },
      { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' },
    );
    assert.equal(wrongVersion.body.error?.code, -32020);
  });

  test('2026-07-28/basic/index#per-request-protocol-fields: a missing _meta or _meta protocol version → 400 -32602, before any header check', async () => {
    const noMeta = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    );
    assert.equal(noMeta.status, 400);
    assert.equal(noMeta.body.error?.code, -32602);
    assert.match(noMeta.body.error?.message ?? '', /protocolVersion/);
    // Headers that would also mismatch do not change the answer: the request's own fields come first.
    const noVersion = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
    );
    assert.equal(noVersion.status, 400);
    assert.equal(noVersion.body.error?.code, -32602);
  });

  test('2026-07-28/basic/transports/streamable-http#value-encoding: a Base64-sentinel Mcp-Name is decoded', async () => {
    const encoded = `=?base64?${Buffer.from('test_simple_text').toString('base64')}?=`;
    const r = await modern(
      'tools/call',
      { name: 'test_simple_text', arguments: {} },
      { 'mcp-name': encoded },
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.result?.resultType, 'complete');
  });

  test('2026-07-28/basic/versioning#protocol-version-negotiation: unsupported version → 400 -32022 with supported list', async () => {
    const r = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } },
      },
      { 'mcp-protocol-version': '2030-01-01', 'mcp-method': 'tools/list' },
    );
    assert.equal(r.status, 400);
    assert.deepEqual(r.body.error, {
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: SUPPORTED, requested: '2030-01-01' },
    });
  });

  test('2026-07-28/basic/transports/streamable-http#protocol-version-header: unknown method → 404 -32601', async () => {
    for (const method of ['initialize', 'ping', 'prompts/list']) {
      const r = await modern(method);
      assert.equal(r.status, 404, method);
      assert.equal(r.body.error?.code, -32601);
    }
  });

  test('2026-07-28/basic/index#_meta: clientCapabilities is required → -32602', async () => {
    const r = await post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    );
    assert.equal(r.status, 400);
    assert.equal(r.body.error?.code, -32602);
  });

  test('2026-07-28/basic/transports/streamable-http#earlier-streamable-http-revisions: Mcp-Session-Id is ignored', async () => {
    const r = await modern('tools/list', {}, { 'mcp-session-id': 'stale-session' });
    assert.equal(r.status, 200);
    assert.equal(r.headers['mcp-session-id'], undefined);
  });

  test('2026-07-28: a user-scoped tool without a user → HTTP 401', async () => {
    const r = await modern(
      'tools/call',
      { name: 'getMyAccountBalance', arguments: {} },
      { 'mcp-name': 'getMyAccountBalance' },
    );
    assert.equal(r.status, 401);
    assert.equal(r.body.error?.code, -31001);
  });
});

describe('2024-11-05 (over Streamable HTTP)', () => {
  const v2024 = { 'mcp-protocol-version': '2024-11-05' };

  test('2024-11-05/server/tools#tool: a tool is name, description and inputSchema (no title, annotations or outputSchema)', async () => {
    const r = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, v2024);
    assert.equal(r.status, 200);
    const tools = r.body.result?.tools as Record<string, unknown>[];
    assert.ok(tools.length > 0);
    for (const tool of tools)
      assert.deepEqual(
        Object.keys(tool).filter((k) => !['name', 'description', 'inputSchema'].includes(k)),
        [],
        String(tool.name),
      );
    // The same request at 2025-03-26 shows annotations: the shapes are per revision.
    const r2025 = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-protocol-version': '2025-03-26' },
    );
    assert.ok((r2025.body.result?.tools as Record<string, unknown>[]).some((t) => t.annotations));
  });

  test('2024-11-05/server/tools#calling-tools: results are text content without structuredContent', async () => {
    const r = await call('test_simple_text', {}, v2024);
    assert.equal(r.status, 200);
    assert.equal(r.body.result?.structuredContent, undefined);
    assert.equal(text(r), '{"text":"This is a simple text response for testing."}');
  });

  test('2024-11-05/basic/messages: batches are not part of the revision → -32600', async () => {
    const r = await post(
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
      v2024,
    );
    assert.equal(r.status, 400);
    assert.equal(r.body.error?.code, -32600);
  });
});

test('2026-07-28/server/utilities/caching#cache-scope: a subscription limited to some tools gets a private listing', async () => {
  const limited = await startTestGateway(
    { backends: [fixtureBackendConfig(backend.baseUrl)], mcp: { approvalRefreshMs: 1000 } },
    {
      ...OPEN_GATEKEEPER,
      identify: async (request) => {
        const open = await OPEN_GATEKEEPER.identify(request);
        return {
          ...open,
          subscription: { ...open.subscription, tools: new Set(['test_simple_text']) },
        };
      },
    },
  );
  try {
    const r = await limited.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      payload: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const result = r.json().result as Record<string, unknown>;
    assert.deepEqual(
      (result.tools as { name: string }[]).map((t) => t.name),
      ['test_simple_text'],
    );
    assert.equal(result.cacheScope, 'private');
    assert.equal(result.ttlMs, 1000);
  } finally {
    await limited.close();
  }
});
