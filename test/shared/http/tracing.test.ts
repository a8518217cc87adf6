// The shared HTTP server span (src/shared/http/tracing.ts): parent from traceparent, route-template
// names, semantic-convention attributes, handlers run inside the span, probes untraced, 5xx is ERROR.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { createHttpApp } from '../../../src/shared/http/create-app.js';
import { serverSpanOf } from '../../../src/shared/http/tracing.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import { parentIdOf, recordSpans, type SpanRecorder } from '../../helpers/span-recorder.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

let recorder: SpanRecorder;
before(() => {
  recorder = recordSpans();
});
after(async () => {
  await recorder.stop();
});

function build() {
  const { logger } = createLogger({ level: 'info', destination: new LogCapture() });
  return createHttpApp({
    logger,
    bodyLimitBytes: 4096,
    requestTimeoutMs: 5000,
    keepAliveTimeoutMs: 5000,
    untracedPaths: ['/internal/metrics'],
  });
}

test('the incoming traceparent becomes the parent; the name is the route template, never the raw path', async () => {
  recorder.reset();
  const app = build();
  let active: string | undefined;
  let fromRequest: string | undefined;
  app.post('/orders/:id', async (req) => {
    // After body parsing: the handler still runs in the server span's context.
    await new Promise((resolve) => setImmediate(resolve));
    active = trace.getActiveSpan()?.spanContext().spanId;
    fromRequest = serverSpanOf(req)?.spanContext().spanId;
    return { ok: true };
  });
  const response = await app.inject({
    method: 'POST',
    url: '/orders/ord-123?secret=s3cr3t-query',
    headers: {
      traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
      tracestate: 'vendor=abc',
      authorization: 'Bearer tok-very-secret',
    },
    payload: { iban: 'DE89370400440532013000' },
  });
  await app.close();
  assert.equal(response.statusCode, 200);
  const spans = recorder.spans();
  assert.equal(spans.length, 1);
  const span = spans[0]!;
  assert.equal(span.name, 'POST /orders/:id');
  assert.equal(span.kind, SpanKind.SERVER);
  assert.equal(span.spanContext().traceId, TRACE_ID);
  assert.equal(parentIdOf(span), PARENT_ID);
  assert.equal(span.parentSpanContext?.isRemote, true);
  assert.equal(span.spanContext().traceState?.get('vendor'), 'abc');
  assert.equal(active, span.spanContext().spanId, 'trace.getActiveSpan() in the handler');
  assert.equal(fromRequest, span.spanContext().spanId, 'serverSpanOf(req)');
  assert.deepEqual(span.attributes, {
    'http.request.method': 'POST',
    'http.route': '/orders/:id',
    'url.scheme': 'http',
    'network.protocol.version': '1.1',
    'http.response.status_code': 200,
  });
  const text = JSON.stringify(span.attributes) + span.name;
  for (const secret of ['ord-123', 's3cr3t-query', 'tok-very-secret', 'DE89370400440532013000'])
    assert.ok(!text.includes(secret), `no ${secret} in the span`);
  assert.equal(span.status.code, SpanStatusCode.UNSET);
});

test('without traceparent the server span is a root span; a 5xx sets ERROR and error.type, a 4xx does not', async () => {
  recorder.reset();
  const app = build();
  app.get('/boom', async () => {
    throw new Error('internal detail');
  });
  app.get('/missing', async (_req, reply) => reply.code(404).send({ nope: true }));
  assert.equal((await app.inject({ url: '/boom' })).statusCode, 500);
  assert.equal((await app.inject({ url: '/missing' })).statusCode, 404);
  assert.equal((await app.inject({ url: '/no/such/route/42' })).statusCode, 404);
  await app.close();
  const [boom, missing, unrouted] = recorder.spans();
  assert.equal(boom?.name, 'GET /boom');
  assert.equal(parentIdOf(boom!), '');
  assert.equal(boom?.status.code, SpanStatusCode.ERROR);
  assert.equal(boom?.attributes['error.type'], '500');
  assert.equal(boom?.attributes['http.response.status_code'], 500);
  assert.ok(!JSON.stringify(boom?.attributes).includes('internal detail'));
  assert.equal(missing?.status.code, SpanStatusCode.UNSET);
  assert.equal(missing?.attributes['error.type'], undefined);
  // No route matched: the name is the method alone (the raw path could hold anything).
  assert.equal(unrouted?.name, 'GET');
  assert.equal(unrouted?.attributes['http.route'], undefined);
});

test('health, readiness and metrics endpoints make no span', async () => {
  recorder.reset();
  const app = build();
  app.get('/metrics', async () => 'm');
  app.get('/internal/metrics', async () => 'm');
  for (const url of ['/healthz', '/readyz', '/metrics', '/internal/metrics'])
    assert.equal((await app.inject({ url })).statusCode, 200, url);
  await app.close();
  assert.deepEqual(
    recorder.spans().map((s) => s.name),
    [],
  );
});

test('spans a handler starts are children of the server span, across awaits', async () => {
  recorder.reset();
  const app = build();
  const tracer = trace.getTracer('test');
  app.post('/work', async () => {
    await tracer.startActiveSpan('child', async (span) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      span.end();
    });
    return { ok: true };
  });
  await app.inject({ method: 'POST', url: '/work', payload: { a: 1 } });
  await app.close();
  const server = recorder.spans().find((s) => s.name === 'POST /work');
  const child = recorder.spans().find((s) => s.name === 'child');
  assert.ok(server && child);
  assert.equal(parentIdOf(child), server.spanContext().spanId);
  assert.equal(child.spanContext().traceId, server.spanContext().traceId);
  // Nothing leaks into the context outside the request.
  assert.equal(trace.getSpan(context.active()), undefined);
});

test('over a real socket, with the body arriving after the headers, the handler runs in the server span', async () => {
  recorder.reset();
  const app = build();
  let active: string | undefined;
  app.post('/slow-body', async () => {
    active = trace.getActiveSpan()?.spanContext().spanId;
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  assert.ok(address && typeof address === 'object');
  // Headers first, the body only once the server has begun the request: it then arrives on a socket event.
  const body = JSON.stringify({ padding: 'x'.repeat(2000) });
  const status = await new Promise<number>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: address.port,
      method: 'POST',
      path: '/slow-body',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.flushHeaders();
    setTimeout(() => req.end(body), 50);
  });
  assert.equal(status, 200);
  await app.close();
  const server = recorder.spans().find((s) => s.name === 'POST /slow-body');
  assert.ok(server);
  assert.equal(server.spanContext().traceId, TRACE_ID);
  assert.equal(active, server.spanContext().spanId);
  assert.equal(typeof server.attributes['server.port'], 'number');
});

test('a hook that continues outside the request context (as pooled callbacks do) does not detach the handler', async () => {
  recorder.reset();
  const app = build();
  app.addHook('preHandler', (_req, _reply, done) => {
    context.with(ROOT_CONTEXT, done);
  });
  let active: string | undefined;
  app.get('/detached', async () => {
    active = trace.getActiveSpan()?.spanContext().spanId;
    return { ok: true };
  });
  assert.equal((await app.inject({ url: '/detached' })).statusCode, 200);
  await app.close();
  const server = recorder.spans().find((s) => s.name === 'GET /detached');
  assert.ok(server);
  assert.equal(
    active,
    server.spanContext().spanId,
    'the onRoute wrapper re-enters the span context',
  );
});
