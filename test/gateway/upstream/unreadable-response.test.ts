// A backend 2xx whose body cannot be read as the JSON the operation declares is a tool
// error naming the operation, not a success. Gateway in front of the fixture backend (node:http, port 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureGatewayForFile, injectToolCall } from '../support/gateway.js';

const fixture = fixtureGatewayForFile();

interface ToolResult {
  readonly content: { readonly text: string }[];
  readonly isError?: boolean;
  readonly structuredContent?: unknown;
}

async function getPayment(paymentId: string): Promise<ToolResult> {
  const reply = await injectToolCall(fixture.gw, 'getPayment', { paymentId });
  assert.equal(reply.status, 200);
  return reply.body.result as ToolResult;
}

const UNREADABLE =
  'The backend returned an unreadable response for getPayment (HTTP 200): the body is not valid JSON.';

test('a 2xx application/json body that is not JSON → isError naming the operation', async () => {
  const result = await getPayment('truncated');
  assert.equal(result.isError, true);
  assert.ok(result.content[0]?.text.startsWith(UNREADABLE), result.content[0]?.text);
  assert.equal(result.structuredContent, undefined);
});

test('a 2xx HTML page for an operation that declares JSON → isError naming the operation', async () => {
  const result = await getPayment('html-page');
  assert.equal(result.isError, true);
  assert.ok(result.content[0]?.text.startsWith(UNREADABLE), result.content[0]?.text);
});

test('a readable 2xx JSON answer is still a success', async () => {
  const result = await getPayment('PO-7');
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, {
    id: 'PO-7',
    status: 'INITIATED',
    amount: { value: '10.00', currency: 'EUR' },
  });
});
