// What a message costs: every message the quotas admit uses one unit of each quota that applies, whatever
// becomes of it afterwards — an invalid JSON-RPC message and an unknown method included, since each is work
// the gateway does for the client; a message a quota refuses uses none (docs/architecture.md).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MCP_HEADERS, startConfiguredGateway, type ConfiguredGateway } from '../support/gateway.js';

let gw: ConfiguredGateway;
let key: string;
before(async () => {
  gw = await startConfiguredGateway({
    backends: [],
    auth: { devIdentityProvider: { enabled: false } },
  });
  key = await gw.issueKey({ rateLimitPerMinute: 3 });
});
after(async () => gw.close());

async function send(message: unknown) {
  const reply = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'ocp-apim-subscription-key': key },
    payload: JSON.stringify(message),
  });
  const body = reply.json() as { error?: { code: number } };
  return {
    status: reply.statusCode,
    code: body.error?.code,
    rateLimit: reply.headers['ratelimit'],
  };
}

test('an invalid message and an unknown method each cost quota; the refused message costs none', async () => {
  const invalid = await send({ jsonrpc: '1.0', id: 1, method: 'ping' });
  assert.deepEqual([invalid.status, invalid.code], [400, -32600]);
  assert.match(String(invalid.rateLimit), /"subscription";r=2;/);
  const unknown = await send({ jsonrpc: '2.0', id: 2, method: 'no/such/method' });
  assert.deepEqual([unknown.status, unknown.code], [200, -32601]);
  assert.match(String(unknown.rateLimit), /"subscription";r=1;/);
  const ping = await send({ jsonrpc: '2.0', id: 3, method: 'ping' });
  assert.equal(ping.status, 200);
  assert.match(String(ping.rateLimit), /"subscription";r=0;/);
  // The quota of 3 is used up by those three: the next message is refused and is not counted.
  const refused = await send({ jsonrpc: '2.0', id: 4, method: 'ping' });
  assert.deepEqual([refused.status, refused.code], [429, -31029]);
  assert.match(String(refused.rateLimit), /"subscription";r=0;/);
});
