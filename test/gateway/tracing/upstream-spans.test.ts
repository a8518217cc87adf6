// An upstream MCP server's tool (federation, issue 28) traced: policy and governance steps, then a
// `tools/call <upstream tool>` CLIENT span (MCP semantic conventions, client side) whose context is the
// traceparent the upstream receives. Real SDK set-up (startTracing) exporting OTLP/JSON to the receiver.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { context, trace } from '@opentelemetry/api';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config/load.js';
import { resolveTracing } from '../../../src/config/telemetry.js';
import { startTracing, type Tracing } from '../../../src/shared/telemetry/tracing.js';
import { SPAN_KIND, startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { ScriptedUpstream, harness, mcpTool } from '../federation/support/calls-harness.js';

let receiver: OtlpReceiver;
let tracing: Tracing;

before(async () => {
  receiver = await startOtlpReceiver();
  const config = loadConfig({ env: {}, overrides: {} });
  tracing = startTracing(
    resolveTracing(
      config.telemetry.tracing,
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
      'toolgate-gateway',
    ),
    pino({ level: 'silent' }),
    { serviceVersion: 'test', environment: 'development' },
  );
});
after(async () => {
  await tracing.shutdown();
  await receiver.close();
});

test('federation: tools/call at an upstream is a CLIENT span under the message; the upstream receives its traceparent', async () => {
  const upstream = new ScriptedUpstream('up', () => ({
    content: [{ type: 'text', text: 'done' }],
  }));
  const tool = mcpTool({
    name: 'up_transfer',
    mcp: { name: 'transfer' },
    inputSchema: { type: 'object', properties: { to: { type: 'string' } } },
  });
  const h = harness({ upstreams: [upstream] });
  const message = trace.getTracer('test').startSpan('tools/call up_transfer');
  const result = await context.with(trace.setSpan(context.active(), message), () =>
    h.run(tool, { name: 'up_transfer', arguments: { to: 'secret-recipient-42' } }),
  );
  message.end();
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const { traceId, spanId } = message.spanContext();
  await receiver.waitFor((spans) =>
    spans.some((s) => s.traceId === traceId && s.kind === SPAN_KIND.client),
  );
  const spans = receiver.spans.filter((s) => s.traceId === traceId);
  const client = spans.find((s) => s.kind === SPAN_KIND.client);
  assert.ok(client);
  assert.equal(client.name, 'tools/call transfer');
  assert.equal(client.parentSpanId, spanId);
  assert.equal(client.attributes['mcp.method.name'], 'tools/call');
  assert.equal(client.attributes['gen_ai.tool.name'], 'transfer');
  assert.equal(client.attributes['toolgate.backend'], 'up');
  assert.equal(upstream.received[0]?.options?.traceparent, `00-${traceId}-${client.spanId}-01`);
  for (const step of ['toolgate.policy', 'toolgate.governance'])
    assert.equal(spans.find((s) => s.name === step)?.parentSpanId, spanId, step);
  assert.equal(
    spans.find((s) => s.name === 'toolgate.governance')?.attributes['toolgate.governance'],
    'off',
  );
  for (const request of receiver.requests)
    assert.equal(request.body.includes('secret-recipient-42'), false);
});
