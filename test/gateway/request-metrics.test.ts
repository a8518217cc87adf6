// The labels of the MCP request metrics come from bounded sets, whatever the client sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordFor } from '../../src/gateway/request-metrics.js';

test('JSON-RPC methods outside the protocol count as "other"; batches and bodies without a method are named', () => {
  const method = (fields: Record<string, unknown> | null) =>
    recordFor(fields, 200, 1).request.method;
  assert.equal(method({ rpcMethod: 'tools/call' }), 'tools/call');
  assert.equal(method({ rpcMethod: 'server/discover' }), 'server/discover');
  assert.equal(method({ rpcMethod: 'x'.repeat(64) }), 'other');
  assert.equal(method({ rpcMethod: 'resources/list' }), 'other');
  assert.equal(method({ rpcBatch: 3 }), 'batch');
  assert.equal(method(null), 'none');
  assert.deepEqual(recordFor({ rpcMethod: 'ping' }, 429, 2.5), {
    request: { method: 'ping', status: '429' },
    durationSeconds: 0.0025,
  });
});

test('tool-call outcomes: ok, backend status classes, failures, invalid arguments, refusals, broken output', () => {
  const base = { rpcMethod: 'tools/call', tool: 'getPayment', backend: 'payments' };
  const outcome = (fields: Record<string, unknown>) =>
    recordFor({ ...base, ...fields }, 200, 5).toolCall?.outcome;
  assert.equal(outcome({ upstream: 200, upstreamMs: 3 }), 'ok');
  assert.equal(outcome({ upstream: 201, upstreamMs: 3 }), 'ok');
  assert.equal(outcome({ upstream: 200, upstreamMs: 3, toolError: true }), 'tool_error');
  assert.equal(outcome({ upstream: 404, upstreamMs: 3, toolError: true }), 'backend_4xx');
  assert.equal(outcome({ upstream: 503, upstreamMs: 3, toolError: true }), 'backend_5xx');
  assert.equal(outcome({ upstream: 302, upstreamMs: 3, toolError: true }), 'backend_3xx');
  assert.equal(outcome({ upstream: 'too-large', upstreamMs: 3, toolError: true }), 'too_large');
  assert.equal(outcome({ upstream: 'timeout', upstreamMs: 15000, toolError: true }), 'timeout');
  assert.equal(outcome({ toolError: true }), 'invalid_arguments');
  assert.equal(outcome({ rpcError: -31001 }), 'refused');
  const ok = recordFor({ ...base, upstream: 200, upstreamMs: 40 }, 200, 45);
  assert.deepEqual(ok.toolCall, { tool: 'getPayment', backend: 'payments', outcome: 'ok' });
  assert.equal(ok.upstreamSeconds, 0.04);
  assert.equal(
    recordFor({ rpcMethod: 'tools/call', rpcError: -32602 }, 200, 1).toolCall,
    undefined,
  );
});
