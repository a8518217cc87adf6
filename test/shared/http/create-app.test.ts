import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addLogFields } from '../../../src/shared/http/access-log.js';
import { createHttpApp, type ReadinessCheck } from '../../../src/shared/http/create-app.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';

function build(readiness: ReadinessCheck[] = []) {
  const capture = new LogCapture();
  const { logger } = createLogger({ level: 'info', destination: capture });
  const app = createHttpApp({
    logger,
    bodyLimitBytes: 1024,
    requestTimeoutMs: 5000,
    keepAliveTimeoutMs: 5000,
    readiness,
  });
  return { app, capture };
}

test('a well-formed incoming X-Request-Id is used, returned and logged', async () => {
  const { app, capture } = build();
  app.get('/thing', async () => ({ ok: true }));
  const response = await app.inject({
    url: '/thing',
    headers: { 'x-request-id': 'req-abc.123' },
  });
  assert.equal(response.headers['x-request-id'], 'req-abc.123');
  await app.close();
  assert.ok(capture.records().some((r) => r.reqId === 'req-abc.123'));
});

test('each request leaves exactly one access line, with status, duration and the fields handlers added', async () => {
  const { app, capture } = build();
  app.get('/thing/:id', async (req) => {
    addLogFields(req, { tool: 'getThing' });
    addLogFields(req, { upstream: 200 });
    return { ok: true };
  });
  await app.inject({ url: '/thing/7?page=2', headers: { 'x-request-id': 'req-one' } });
  await app.inject({ url: '/nope', headers: { 'x-request-id': 'req-two' } });
  await app.close();
  const one = capture.records().filter((r) => r.reqId === 'req-one');
  assert.equal(one.length, 1, 'one line for the request, not incoming + completed');
  assert.equal(one[0]?.msg, 'request');
  assert.equal(one[0]?.method, 'GET');
  assert.equal(one[0]?.url, '/thing/7?page=2');
  assert.equal(one[0]?.status, 200);
  assert.equal(typeof one[0]?.ms, 'number');
  assert.equal(one[0]?.tool, 'getThing');
  assert.equal(one[0]?.upstream, 200);
  const two = capture.records().filter((r) => r.reqId === 'req-two');
  assert.deepEqual(
    two.map((r) => [r.msg, r.status, r.tool]),
    [['request', 404, undefined]],
    'fields of one request never leak into another',
  );
});

test('probes (/healthz, /readyz) leave no access line', async () => {
  const { app, capture } = build();
  await app.inject({ url: '/healthz' });
  await app.inject({ url: '/readyz' });
  await app.close();
  assert.deepEqual(
    capture.records().filter((r) => r.msg === 'request'),
    [],
  );
});

test('a malformed X-Request-Id is replaced by a generated UUID', async () => {
  const { app } = build();
  for (const bad of ['has spaces', 'x'.repeat(129), 'semi;colon', '']) {
    const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': bad } });
    const id = response.headers['x-request-id'];
    assert.match(
      String(id),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  }
  await app.close();
});

test('/healthz answers ok; /readyz reports each store and fails when one is down or when draining', async () => {
  let dbUp = true;
  const { app } = build([
    {
      name: 'database',
      check: async () => {
        if (!dbUp) throw new Error('down');
      },
    },
  ]);
  assert.deepEqual((await app.inject({ url: '/healthz' })).json(), { status: 'ok' });
  let ready = await app.inject({ url: '/readyz' });
  assert.equal(ready.statusCode, 200);
  assert.deepEqual(ready.json(), { status: 'ready', checks: { database: 'ok' } });
  dbUp = false;
  ready = await app.inject({ url: '/readyz' });
  assert.equal(ready.statusCode, 503);
  assert.deepEqual(ready.json(), { status: 'unavailable', checks: { database: 'unavailable' } });
  dbUp = true;
  app.drain.draining = true;
  ready = await app.inject({ url: '/readyz' });
  assert.equal(ready.statusCode, 503);
  assert.deepEqual(ready.json(), { status: 'draining' });
  await app.close();
});

test('/readyz: a store the service can do without (onFailure degraded) keeps it ready, shown as degraded', async () => {
  let cacheUp = true;
  let dbUp = true;
  const { app } = build([
    {
      name: 'database',
      check: async () => {
        if (!dbUp) throw new Error('down');
      },
    },
    {
      name: 'cache',
      onFailure: 'degraded',
      check: async () => {
        if (!cacheUp) throw new Error('down');
      },
    },
  ]);
  let ready = await app.inject({ url: '/readyz' });
  assert.deepEqual(ready.json(), { status: 'ready', checks: { database: 'ok', cache: 'ok' } });
  cacheUp = false;
  ready = await app.inject({ url: '/readyz' });
  assert.equal(ready.statusCode, 200);
  assert.deepEqual(ready.json(), {
    status: 'degraded',
    checks: { database: 'ok', cache: 'unavailable' },
  });
  dbUp = false;
  ready = await app.inject({ url: '/readyz' });
  assert.equal(ready.statusCode, 503, 'a required store down still makes the service unready');
  assert.deepEqual(ready.json(), {
    status: 'unavailable',
    checks: { database: 'unavailable', cache: 'unavailable' },
  });
  await app.close();
});

test('client mistakes get problem+json 4xx without internals; unknown routes 404', async () => {
  const { app } = build();
  app.post('/json', async () => ({ ok: true }));
  const notFound = await app.inject({ url: '/nope' });
  assert.equal(notFound.statusCode, 404);
  assert.equal(notFound.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(notFound.json().code, 'NOT_FOUND');

  const badJson = await app.inject({
    method: 'POST',
    url: '/json',
    headers: { 'content-type': 'application/json' },
    payload: '{"a":',
  });
  assert.equal(badJson.statusCode, 400);
  assert.equal(badJson.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(JSON.stringify(badJson.json()).includes('at '), false, 'no stack frames');

  const tooLarge = await app.inject({
    method: 'POST',
    url: '/json',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ a: 'x'.repeat(2048) }),
  });
  assert.equal(tooLarge.statusCode, 413);
  await app.close();
});

test('an unexpected error is a 500 problem quoting the request id, never the error message or stack', async () => {
  const { app, capture } = build();
  app.get('/boom', async () => {
    throw new Error('secret internal detail at /srv/app/db.ts:42');
  });
  const response = await app.inject({ url: '/boom', headers: { 'x-request-id': 'boom-1' } });
  assert.equal(response.statusCode, 500);
  const body = response.json();
  assert.equal(body.code, 'INTERNAL');
  assert.match(body.detail, /boom-1/);
  assert.equal(response.body.includes('secret internal detail'), false);
  await app.close();
  assert.ok(capture.text.includes('secret internal detail'), 'the error is logged for operators');
});

test('JSON bodies: syntax errors and prototype-poisoning keys are 400 problems naming the problem', async () => {
  const { app } = build();
  app.post('/echo', async (req) => req.body);
  const post = (payload: string) =>
    app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload,
    });

  const ok = await post('{"a":{"constructor":"x","list":[1,{"b":2}]}}');
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(ok.json(), { a: { constructor: 'x', list: [1, { b: 2 }] } });

  const broken = await post('{"a":');
  assert.equal(broken.statusCode, 400);
  assert.equal(broken.headers['content-type'], 'application/problem+json; charset=utf-8');
  assert.equal(broken.json().code, 'INVALID_JSON');
  assert.match(broken.json().detail, /not valid JSON/);

  const empty = await post('  ');
  assert.equal(empty.statusCode, 400);
  assert.equal(empty.json().code, 'INVALID_JSON');

  const proto = await post('{"a":[{"ok":1},{"x~/y":{"__proto__":{"admin":true}}}]}');
  assert.equal(proto.statusCode, 400);
  assert.equal(proto.json().code, 'FORBIDDEN_PROPERTY_NAME');
  assert.deepEqual(proto.json().errors, [
    {
      pointer: '/a/1/x~0~1y/__proto__',
      code: 'FORBIDDEN_PROPERTY_NAME',
      message: 'property name "__proto__" is not allowed (at /a/1/x~0~1y/__proto__)',
    },
  ]);

  const ctor = await post('{"constructor":{"prototype":{"polluted":1}}}');
  assert.equal(ctor.statusCode, 400);
  assert.equal(ctor.json().errors[0].pointer, '/constructor/prototype');
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  assert.equal(({} as Record<string, unknown>)['admin'], undefined);
  await app.close();
});

test('a body nested deeper than 64 levels is a 400 JSON_TOO_DEEP problem naming the limit; one nested 64 deep is accepted', async () => {
  const { app } = build();
  app.post('/echo', async (req) => req.body);
  const deep = '['.repeat(500) + ']'.repeat(500); // under the test app's 1 KiB body limit
  const response = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'application/json' },
    payload: deep,
  });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 'JSON_TOO_DEEP');
  assert.match(response.json().detail, /deeper than 64 levels/);
  const limit = '['.repeat(64) + ']'.repeat(64);
  const ok = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'application/json' },
    payload: limit,
  });
  assert.equal(ok.statusCode, 200);
});
