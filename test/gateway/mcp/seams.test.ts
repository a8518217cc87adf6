// The gatekeeper seam of the request path (src/gateway/gatekeeper/gatekeeper.ts): identify once per HTTP
// request, admit once per JSON-RPC message, authorize each tool call; the Caller it builds decides the
// visible tools and the identity the backend receives.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors.js';
import type { Gatekeeper, InboundRequest } from '../../../src/gateway/gatekeeper/gatekeeper.js';
import type { Caller } from '../../../src/gateway/caller.js';
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
const identified: InboundRequest[] = [];
const admitted: (string | undefined)[] = [];

const gatekeeper: Gatekeeper = {
  async identify(request) {
    identified.push(request);
    const token = request.headers.authorization;
    if (token === 'Bearer bad')
      throw new GatewayError('UNAUTHENTICATED', 'Invalid token', undefined, {
        'WWW-Authenticate': 'Bearer error="invalid_token"',
      });
    const caller: Caller = {
      requestId: request.requestId,
      clientIp: request.socketAddress,
      subscription: {
        id: 'sub-1',
        application: 'demo',
        environment: 'development',
        tools: new Set(['getMyAccountBalance', 'getPayment']),
        rateLimitPerMinute: null,
      },
      user:
        token === 'Bearer alice'
          ? {
              subject: 'alice',
              claims: { email: 'a@example.com' },
              expiresAt: Math.floor(Date.now() / 1000) + 60,
              tokenHash: 'a1',
            }
          : null,
    };
    return caller;
  },
  async admit(_caller, tool) {
    admitted.push(tool);
    return { 'X-Admitted': String(admitted.length) };
  },
  authorize: OPEN_GATEKEEPER.authorize,
};

before(async () => {
  backend = await startFixtureBackend();
  gw = await startTestGateway(
    {
      backends: [
        fixtureBackendConfig(backend.baseUrl, {
          identity: { mode: 'headers', sharedSecret: 'seam-secret-0123456789' },
        }),
      ],
    },
    gatekeeper,
  );
});
after(async () => {
  await gw.close();
  await backend.close();
});

const post = async (payload: unknown, headers: Record<string, string> = {}) => {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25', ...headers },
    payload: JSON.stringify(payload),
  });
  return {
    status: r.statusCode,
    headers: r.headers,
    body: JSON.parse(r.body) as {
      id: unknown;
      result?: Record<string, unknown>;
      error?: { code: number };
    },
  };
};

test('identify runs once per HTTP request with request id, headers and socket address; admit once per message', async () => {
  const before = identified.length;
  const admittedBefore = admitted.length;
  const r = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'x-request-id': 'rid-42' });
  assert.equal(identified.length, before + 1);
  assert.equal(identified.at(-1)?.requestId, 'rid-42');
  assert.equal(identified.at(-1)?.socketAddress, '127.0.0.1');
  assert.equal(admitted.length, admittedBefore + 1);
  assert.equal(r.headers['x-admitted'], String(admitted.length), 'the admission headers are sent');
  await post({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'getPayment', arguments: { id: 'x' } },
  });
  assert.equal(admitted.at(-1), 'getPayment', 'a tools/call is admitted with its tool');
});

test('an identify refusal → its HTTP status, a JSON-RPC error with the request id, and its headers', async () => {
  const r = await post(
    { jsonrpc: '2.0', id: 5, method: 'tools/list' },
    { authorization: 'Bearer bad' },
  );
  assert.equal(r.status, 401);
  assert.equal(r.body.id, 5);
  assert.equal(r.body.error?.code, -31001);
  assert.equal(r.headers['www-authenticate'], 'Bearer error="invalid_token"');
});

test('a subscription’s allowed tools filter tools/list and tools/call', async () => {
  const list = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  assert.deepEqual(
    (list.body.result?.tools as { name: string }[]).map((t) => t.name),
    ['getMyAccountBalance', 'getPayment'],
  );
  const hidden = await post({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'createPayment', arguments: {} },
  });
  assert.equal(hidden.body.error?.code, -32602);
});

test('with a user, a user-scoped tool is called and the backend gets that identity, not the client’s headers', async () => {
  const r = await post(
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'getMyAccountBalance', arguments: {} },
    },
    { authorization: 'Bearer alice', 'x-user-id': 'mallory' },
  );
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.result?.structuredContent, { balance: '100.00' });
  const upstream = backend.requests.at(-1);
  assert.equal(upstream?.headers['x-user-id'], 'alice', 'from the caller, not from the client');
  assert.equal(upstream?.headers['x-toolgate-application'], 'demo');
  assert.equal(upstream?.headers.authorization, undefined);
});
