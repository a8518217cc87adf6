// The pipeline seams other work plugs into: authenticate (RequestContext), the tool-call guard, the
// subscription's allowed tools and identity forwarding.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors.js';
import type { RequestContext } from '../../../src/gateway/mcp/request-context.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

let backend: FixtureBackend;
let gw: TestGateway;
const seen: RequestContext[] = [];

before(async () => {
  backend = await startFixtureBackend();
  gw = await startTestGateway(
    { backends: [fixtureBackendConfig(backend.baseUrl)] },
    {
      authenticate: async (request) => {
        const token = request.headers.authorization;
        if (token === 'Bearer bad')
          throw new GatewayError('UNAUTHENTICATED', 'Invalid token', undefined, {
            'WWW-Authenticate': 'Bearer error="invalid_token"',
          });
        const context: RequestContext = {
          requestId: request.requestId,
          clientIp: request.clientIp,
          principal:
            token === 'Bearer alice'
              ? { kind: 'user', subject: 'alice', claims: { email: 'a@example.com' } }
              : { kind: 'anonymous' },
          subscription: {
            id: 'sub-1',
            application: 'demo',
            allowedTools: new Set(['getMyAccountBalance', 'getPayment']),
          },
        };
        seen.push(context);
        return context;
      },
      identity: (context): Record<string, string> =>
        context.principal.kind === 'user' ? { 'X-User-Id': context.principal.subject } : {},
    },
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

test('authenticate runs once per HTTP request and gets request id, headers and client address', async () => {
  const before = seen.length;
  await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'x-request-id': 'rid-42' });
  assert.equal(seen.length, before + 1);
  assert.equal(seen.at(-1)?.requestId, 'rid-42');
  assert.equal(seen.at(-1)?.clientIp, '127.0.0.1');
});

test('an authenticator refusal → its HTTP status, a JSON-RPC error with the request id, and its headers', async () => {
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

test('with a user principal, a user-scoped tool is called and the identity hook’s headers reach the backend', async () => {
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
  assert.equal(upstream?.headers['x-user-id'], 'alice', 'from the hook, not from the client');
  assert.equal(upstream?.headers.authorization, undefined);
});
