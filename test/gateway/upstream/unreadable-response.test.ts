// Review finding 12: a backend 2xx whose body cannot be read as the JSON the operation declares is a tool
// error naming the operation, not a success. Gateway in front of the fixture backend (node:http, port 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MCP_HEADERS, fixtureGatewayForFile } from '../support/gateway.js';

const fixture = fixtureGatewayForFile();

interface ToolResult {
  readonly content: { readonly text: string }[];
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
}

async function getPayment(paymentId: string): Promise<ToolResult> {
  const reply = await fixture.gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'getPayment', arguments: { paymentId } },
    }),
  });
  assert.equal(reply.statusCode, 200);
  return (JSON.parse(reply.body) as { result: ToolResult }).result;
}

const UNREADABLE =
  'The backend returned an unreadable response for getPayment (HTTP 200): the body is not valid JSON.';

test('review finding 12: a 2xx application/json body that is not JSON → isError naming the operation', async () => {
  const result = await getPayment('truncated');
  assert.equal(result.isError, true);
  assert.ok(result.content[0]?.text.startsWith(UNREADABLE), result.content[0]?.text);
  assert.equal(result.structuredContent, undefined);
});

test('review finding 12: a 2xx HTML page for an operation that declares JSON → isError naming the operation', async () => {
  const result = await getPayment('html-page');
  assert.equal(result.isError, true);
  assert.ok(result.content[0]?.text.startsWith(UNREADABLE), result.content[0]?.text);
});

test('review finding 12: a readable 2xx JSON answer is still a success', async () => {
  const result = await getPayment('PO-7');
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, {
    id: 'PO-7',
    status: 'INITIATED',
    amount: { value: '10.00', currency: 'EUR' },
  });
});
