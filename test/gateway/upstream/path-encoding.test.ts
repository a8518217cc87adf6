// What a path parameter may do to the request line a real backend receives. The fixture
// backend is a node:http server on port 0 that records each request's raw `req.url`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixtureGatewayForFile, injectToolCall } from '../support/gateway.js';

const fixture = fixtureGatewayForFile();

/** Calls cancelPayment with the given id and returns the request line's target the backend saw. */
async function backendUrlFor(paymentId: string): Promise<string | undefined> {
  const before = fixture.backend.requests.length;
  const reply = await injectToolCall(fixture.gw, 'cancelPayment', { paymentId });
  assert.equal(reply.status, 200);
  return fixture.backend.requests.slice(before).at(-1)?.url;
}

test('a path parameter ".." or "." reaches the backend as %2E, never as a dot segment', async () => {
  assert.equal(await backendUrlFor('..'), '/api/v1/payments/%2E%2E/cancel');
  assert.equal(await backendUrlFor('.'), '/api/v1/payments/%2E/cancel');
});

test('a "/", "?", "#" or space in a path parameter reaches the backend percent-encoded (%2F, %3F, %23, %20)', async () => {
  assert.equal(await backendUrlFor('../../admin'), '/api/v1/payments/..%2F..%2Fadmin/cancel');
  assert.equal(await backendUrlFor('PO 1?x#y'), '/api/v1/payments/PO%201%3Fx%23y/cancel');
});
