// The access line is written straight from its fields (no redaction pass over the whole line): it must
// read exactly as the logger would have written it, and still carry no secret a client sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLogger, rawLineWriterOf, type Logger } from '../../../src/shared/log/logger.js';
import { createHttpApp } from '../../../src/shared/http/create-app.js';
import { AccessLogController, addLogFields } from '../../../src/shared/http/access-log.js';
import { LogCapture } from '../../helpers/capture.js';

const SUBSCRIPTION_KEY = 'tgk_4eC39HqLyjWDarjtT1zdp7dcK9xQ2';
const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImRldiJ9.eyJzdWIiOiJhbGljZSIsImF1ZCI6InRvb2xnYXRlIn0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU';
const CONFIGURED_SECRET = 'operator-token-Zx81Qw93Lk27';

function capture(): { capture: LogCapture; service: Logger } {
  const sink = new LogCapture();
  const { logger } = createLogger({
    level: 'info',
    secrets: [CONFIGURED_SECRET],
    destination: sink,
  });
  return { capture: sink, service: logger.child({ service: 'gateway' }) };
}

function noSecrets(text: string): void {
  for (const secret of [SUBSCRIPTION_KEY, JWT, CONFIGURED_SECRET, JWT.split('.')[1] ?? 'x'])
    assert.equal(text.includes(secret), false, `log output contains …${secret.slice(-4)}`);
}

/** The access line of one request through a real app (the raw writer's path). */
async function appLine(): Promise<Record<string, unknown>> {
  const { capture: sink, service } = capture();
  const app = createHttpApp({
    logger: service,
    bodyLimitBytes: 1024 * 1024,
    requestTimeoutMs: 5000,
    keepAliveTimeoutMs: 5000,
  });
  app.post('/mcp', async (req) => {
    addLogFields(req, FIELDS[0] ?? {});
    addLogFields(req, FIELDS[1] ?? {});
    return { ok: true };
  });
  const response = await app.inject({
    method: 'POST',
    url: URL_SENT,
    headers: { 'content-type': 'application/json', 'x-request-id': JWT },
    payload: {},
    remoteAddress: '127.0.0.1',
  });
  assert.equal(response.statusCode, 200);
  await app.close();
  noSecrets(sink.text);
  const lines = sink.records().filter((r) => r.msg === 'request');
  assert.equal(lines.length, 1);
  return lines[0] ?? {};
}

/** The same request's line from the controller with or without the raw writer. */
function controllerLine(raw: boolean): Record<string, unknown> {
  const { capture: sink, service } = capture();
  const controller = new AccessLogController(raw ? rawLineWriterOf(service) : undefined);
  const req = {
    id: JWT,
    log: service.child({ reqId: JWT }),
    method: 'POST',
    url: URL_SENT,
    socket: { remoteAddress: '127.0.0.1' },
    logFields: { ...FIELDS[0], ...FIELDS[1] },
  } as unknown as FastifyRequest;
  controller.requestCompleted(null, req, { statusCode: 200, elapsedTime: 1.5 } as FastifyReply);
  noSecrets(sink.text);
  const lines = sink.records();
  assert.equal(lines.length, 1);
  return lines[0] ?? {};
}

const URL_SENT = `/mcp?subscription-key=${SUBSCRIPTION_KEY}&t=${JWT}`;
const FIELDS: readonly Record<string, unknown>[] = [
  { rpcMethod: `tools/${CONFIGURED_SECRET}`, tool: JWT, upstream: 201 },
  { upstreamMs: 0.25, toolError: true, detail: { key: SUBSCRIPTION_KEY } },
];

function withoutTiming(line: Record<string, unknown>): Record<string, unknown> {
  assert.equal(typeof line.time, 'string');
  assert.equal(typeof line.ms, 'number');
  const { time: _time, ms: _ms, ...rest } = line;
  return rest;
}

test('the access line written from its fields reads as the logger would write it, secrets masked', async () => {
  const raw = withoutTiming(controllerLine(true));
  assert.deepEqual(raw, withoutTiming(controllerLine(false)));
  assert.deepEqual(withoutTiming(await appLine()), raw);
  assert.equal(raw.service, 'gateway');
  assert.equal(raw.level, 30);
  assert.equal(raw.upstream, 201);
  assert.equal(raw.toolError, true);
  assert.equal(raw.remoteAddress, '127.0.0.1');
  assert.match(String(raw.url), /^\/mcp\?subscription-key=tgk_…/);
  assert.match(String(raw.rpcMethod), /^tools\/…/);
});

test('a route at warn writes no access line on the raw path', () => {
  const { capture: sink, service } = capture();
  const controller = new AccessLogController(rawLineWriterOf(service));
  const req = {
    id: 'r1',
    log: service.child({ reqId: 'r1' }, { level: 'warn' }),
    method: 'GET',
    url: '/healthz',
    socket: { remoteAddress: '127.0.0.1' },
    logFields: null,
  } as unknown as FastifyRequest;
  controller.requestCompleted(null, req, { statusCode: 200, elapsedTime: 1 } as FastifyReply);
  assert.equal(sink.lines.length, 0);
});
