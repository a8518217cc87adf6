// Per-subscription RED metrics (issue 29): the subscription id comes from the access-line fields, and only
// the first gateway.metrics.subscriptionLabels ids get a label of their own — later ones count as "other",
// so the number of series stays bounded however many subscriptions call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import {
  OTHER_SUBSCRIPTION,
  SubscriptionLabels,
  createRequestMetrics,
  recordFor,
} from '../../../src/gateway/request-metrics.js';

test('the first N distinct subscription ids are labelled, later ones and calls without one are "other"', () => {
  const labels = new SubscriptionLabels(2);
  assert.equal(labels.label('sub_a'), 'sub_a');
  assert.equal(labels.label('sub_b'), 'sub_b');
  assert.equal(labels.label('sub_c'), OTHER_SUBSCRIPTION);
  assert.equal(labels.label('sub_a'), 'sub_a', 'a labelled id keeps its label');
  assert.equal(labels.label(undefined), OTHER_SUBSCRIPTION);
  assert.equal(new SubscriptionLabels(0).label('sub_a'), OTHER_SUBSCRIPTION);
});

test('recordFor carries the subscription of a tools/call from its access-line fields', () => {
  const record = recordFor(
    {
      rpcMethod: 'tools/call',
      tool: 'getPayment',
      backend: 'payments',
      subscription: 'sub_a',
      upstream: 200,
    },
    200,
    5,
  );
  assert.deepEqual(record.toolCall, {
    tool: 'getPayment',
    backend: 'payments',
    outcome: 'ok',
    subscription: 'sub_a',
  });
});

/** The onResponse hook with the fields a request leaves on its access line. */
async function respond(
  metrics: ReturnType<typeof createRequestMetrics>,
  fields: Record<string, unknown>,
): Promise<void> {
  const req = { routeOptions: { url: '/mcp' }, method: 'POST', logFields: fields };
  const reply = { statusCode: 200, elapsedTime: 20 };
  await metrics.onResponse(req as never, reply as never);
}

test('the counter and histogram per subscription, bounded; 0 turns them off', async () => {
  const registry = new Registry();
  const metrics = createRequestMetrics(registry, '/mcp', 1);
  const call = { rpcMethod: 'tools/call', tool: 'getPayment', backend: 'payments' };
  await respond(metrics, { ...call, subscription: 'sub_a', upstream: 200 });
  await respond(metrics, { ...call, subscription: 'sub_b', upstream: 503 });
  await respond(metrics, { ...call, subscription: 'sub_a', upstream: 200 });
  const text = await registry.metrics();
  assert.match(
    text,
    /^toolgate_subscription_tool_calls_total\{subscription="sub_a",outcome="ok"\} 2$/m,
  );
  assert.match(
    text,
    /^toolgate_subscription_tool_calls_total\{subscription="other",outcome="backend_5xx"\} 1$/m,
  );
  assert.doesNotMatch(text, /sub_b/);
  assert.match(
    text,
    /^toolgate_subscription_tool_call_duration_seconds_count\{subscription="sub_a"\} 2$/m,
  );
  assert.match(text, /^toolgate_tool_call_duration_seconds_count\{tool="getPayment"\} 3$/m);
  // The subscription never becomes a label of the per-tool counter.
  assert.match(
    text,
    /^toolgate_tool_calls_total\{tool="getPayment",backend="payments",outcome="ok"\} 2$/m,
  );

  const off = new Registry();
  await respond(createRequestMetrics(off, '/mcp', 0), {
    ...call,
    subscription: 'sub_a',
    upstream: 200,
  });
  assert.doesNotMatch(await off.metrics(), /toolgate_subscription_/);
});
