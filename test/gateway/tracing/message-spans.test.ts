// The gateway's spans in process, exported by the real SDK set-up (startTracing) over OTLP/JSON to the test
// receiver: a message's parent is the trace context in its `params._meta` (SEP-414) when it carries one,
// with the HTTP request's span linked; the traceparent the backend receives is the backend CLIENT span's;
// each message of a batch has its own span; a JSON-RPC error is recorded in rpc.response.status_code and
// error.type (OpenTelemetry semantic conventions for MCP), and the span keeps the bare method name when no
// tool was reached. Argument values are never exported.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config/load.js';
import { resolveTracing } from '../../../src/config/telemetry.js';
import { startTracing, type Tracing } from '../../../src/shared/telemetry/tracing.js';
import { SPAN_KIND, startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';

let receiver: OtlpReceiver;
let tracing: Tracing;
let backend: FixtureBackend;
let gw: TestGateway;

before(async () => {
  receiver = await startOtlpReceiver();
  const config = loadConfig({
    env: {},
    overrides: { telemetry: { tracing: { enabled: true, endpoint: receiver.endpoint } } },
  });
  const settings = resolveTracing(
    config.telemetry.tracing,
    { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
    'toolgate-gateway',
  );
  tracing = startTracing(settings, pino({ level: 'silent' }), {
    serviceVersion: 'test',
    environment: 'development',
  });
  backend = await startFixtureBackend();
  gw = await startTestGateway({ backends: [fixtureBackendConfig(backend.baseUrl)] });
});
after(async () => {
  await gw.close();
  await backend.close();
  await tracing.shutdown();
  await receiver.close();
});

const hexId = (bytes: number) => randomBytes(bytes).toString('hex');

async function post(payload: unknown, headers: Record<string, string> = {}) {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, ...headers },
    payload: JSON.stringify(payload),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as Record<string, unknown> };
}

test('SEP-414: the _meta traceparent is the message span parent (the HTTP span linked); the backend receives the client span as parent', async () => {
  const metaTrace = hexId(16);
  const metaParent = hexId(8);
  const httpTrace = hexId(16);
  const secretArgument = `PO-${hexId(6)}`;
  const sent = backend.requests.length;
  const r = await post(
    {
      jsonrpc: '2.0',
      id: 'call-1',
      method: 'tools/call',
      params: {
        name: 'getPayment',
        arguments: { paymentId: secretArgument },
        _meta: { traceparent: `00-${metaTrace}-${metaParent}-01`, tracestate: 'vendor=x' },
      },
    },
    { traceparent: `00-${httpTrace}-${hexId(8)}-01` },
  );
  assert.equal(r.status, 200);
  await receiver.waitFor((spans) =>
    spans.some((s) => s.traceId === metaTrace && s.name === 'tools/call getPayment'),
  );
  await receiver.waitFor((spans) =>
    spans.some((s) => s.traceId === metaTrace && s.kind === SPAN_KIND.client),
  );
  const message = receiver.spans.find(
    (s) => s.traceId === metaTrace && s.name === 'tools/call getPayment',
  );
  assert.ok(message);
  assert.equal(message.parentSpanId, metaParent);
  assert.equal(message.attributes['jsonrpc.request.id'], 'call-1');
  assert.equal(message.attributes['gen_ai.tool.name'], 'getPayment');
  const http = receiver.spans.find((s) => s.traceId === httpTrace && s.name === 'POST /mcp');
  assert.ok(http, 'the HTTP request keeps its own trace');
  assert.deepEqual(message.links, [{ traceId: httpTrace, spanId: http.spanId }]);
  const client = receiver.spans.find((s) => s.traceId === metaTrace && s.kind === SPAN_KIND.client);
  assert.ok(client);
  assert.equal(client.parentSpanId, message.spanId);
  assert.equal(client.name, 'GET /payments/{paymentId}');
  const received = backend.requests.slice(sent).find((q) => q.url.includes(secretArgument));
  assert.ok(received);
  assert.equal(received.headers.traceparent, `00-${metaTrace}-${client.spanId}-01`);
  assert.equal(received.headers.tracestate, 'vendor=x');
  for (const request of receiver.requests)
    assert.equal(request.body.includes(secretArgument), false, 'argument values are not exported');
});

test('a 2025-03-26 batch: one span per message under the HTTP span, one authentication for the request', async () => {
  const traceId = hexId(16);
  const r = await post(
    [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ],
    { 'mcp-protocol-version': '2025-03-26', traceparent: `00-${traceId}-${hexId(8)}-01` },
  );
  assert.equal(r.status, 200);
  await receiver.waitFor(
    (spans) =>
      spans.filter((s) => s.traceId === traceId && s.kind === SPAN_KIND.server).length >= 3,
  );
  const spans = receiver.spans.filter((s) => s.traceId === traceId);
  const http = spans.find((s) => s.name === 'POST /mcp');
  assert.ok(http);
  const below = (name: string) =>
    spans.filter((s) => s.name === name && s.parentSpanId === http.spanId);
  assert.equal(below('ping').length, 1);
  assert.equal(below('tools/list').length, 1);
  assert.equal(below('toolgate.admission.authenticate').length, 1);
  assert.equal(below('tools/list')[0]?.attributes['mcp.protocol.version'], '2025-03-26');
});

test('MCP semconv: a JSON-RPC error sets rpc.response.status_code and error.type; no tool reached, no tool in the name', async () => {
  const traceId = hexId(16);
  const r = await post(
    {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'noSuchTool', arguments: {} },
    },
    { 'mcp-protocol-version': '2025-06-18', traceparent: `00-${traceId}-${hexId(8)}-01` },
  );
  assert.ok('error' in r.body);
  await receiver.waitFor((spans) =>
    spans.some((s) => s.traceId === traceId && s.name === 'tools/call'),
  );
  const message = receiver.spans.find((s) => s.traceId === traceId && s.name === 'tools/call');
  assert.ok(message);
  const code = String((r.body.error as { code: number }).code);
  assert.equal(message.attributes['rpc.response.status_code'], code);
  assert.equal(message.attributes['error.type'], code);
  assert.equal(message.attributes['gen_ai.tool.name'], undefined);
  assert.equal(message.statusCode, 2);
});

test('sampled out (parent-based, the caller unsampled): no span is exported, yet the backend gets the caller trace with a span id of the call', async () => {
  // The gateway skips the spans under a local span that does not record (gateway/tracing/spans.ts); the
  // traceparent it sends on must still carry the caller's trace id, flags and tracestate.
  const quietTrace = hexId(16);
  const callerSpan = hexId(8);
  const paymentId = `PO-${hexId(6)}`;
  const sent = backend.requests.length;
  const r = await post(
    {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'getPayment', arguments: { paymentId } },
    },
    { traceparent: `00-${quietTrace}-${callerSpan}-00`, tracestate: 'vendor=q' },
  );
  assert.equal(r.status, 200);
  const received = backend.requests.slice(sent).find((q) => q.url.includes(paymentId));
  assert.ok(received);
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/.exec(String(received.headers.traceparent));
  assert.ok(match, `traceparent ${String(received.headers.traceparent)}`);
  assert.equal(match[1], quietTrace, "the caller's trace id");
  assert.notEqual(match[2], callerSpan, 'a span id of its own for the backend call');
  assert.notEqual(match[2], '0000000000000000');
  assert.equal(received.headers.tracestate, 'vendor=q');

  // The same unsampled HTTP request, but a sampled `_meta` parent: the message records, and so do its
  // steps and its backend call, under it.
  const metaTrace = hexId(16);
  const metaParent = hexId(8);
  const r2 = await post(
    {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: {
        name: 'getPayment',
        arguments: { paymentId },
        _meta: { traceparent: `00-${metaTrace}-${metaParent}-01` },
      },
    },
    { traceparent: `00-${hexId(16)}-${hexId(8)}-00` },
  );
  assert.equal(r2.status, 200);
  await receiver.waitFor((spans) =>
    spans.some((s) => s.traceId === metaTrace && s.kind === SPAN_KIND.client),
  );
  await receiver.waitFor((spans) =>
    spans.some((s) => s.traceId === metaTrace && s.name === 'tools/call getPayment'),
  );
  const spans = receiver.spans.filter((s) => s.traceId === metaTrace);
  const message = spans.find((s) => s.name === 'tools/call getPayment');
  assert.ok(message);
  assert.equal(message.parentSpanId, metaParent);
  const under = (name: string) => spans.find((s) => s.name === name)?.parentSpanId;
  assert.equal(under('toolgate.admission.authenticate'), message.spanId);
  assert.equal(under('toolgate.admission.quota'), message.spanId);
  assert.equal(spans.find((s) => s.kind === SPAN_KIND.client)?.parentSpanId, message.spanId);
  // Exported in order of ending: the sampled call's spans arrived, the unsampled one's never will.
  assert.deepEqual(
    receiver.spans.filter((s) => s.traceId === quietTrace),
    [],
  );
});
