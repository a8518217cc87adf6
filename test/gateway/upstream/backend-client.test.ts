// The pooled backend client: response-size cap (declared and streamed), timeouts and connection
// failures come back as values; none of them may surface as an unhandled error event.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { errors } from 'undici';
import {
  BackendClient,
  classifyFailure,
  startFloorMs,
} from '../../../src/gateway/upstream/backend-client.js';

const MAX = 1024;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
process.on('uncaughtException', onUncaught);

let counted = 0;
let hanging = 0;
const server: Server = createServer((req, res) => {
  if (req.url === '/count') counted++;
  if (req.url === '/echo') {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (text += d));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' });
      res.end(
        JSON.stringify({
          method: req.method,
          contentType: req.headers['content-type'],
          requestId: req.headers['x-request-id'],
          body: text,
        }),
      );
    });
    return;
  }
  if (req.url === '/versioned') {
    res.writeHead(200, {
      'content-type': 'application/json',
      etag: '"v7"',
      'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT',
      location: '/elsewhere',
    });
    res.end('{"v":7}');
    return;
  }
  if (req.url === '/declared-too-large') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': MAX * 4 });
    res.write('x'.repeat(MAX * 2)); // never finishes: the client must not wait for the rest
    return;
  }
  if (req.url === '/streamed-too-large') {
    res.writeHead(200, { 'content-type': 'application/json' }); // chunked, no length
    res.write('['.padEnd(MAX - 10, ' '));
    setTimeout(() => res.end(' '.repeat(MAX * 3) + ']'), 20);
    return;
  }
  if (req.url === '/hang') {
    hanging++;
    return; // never answers: closed by the test's after()
  }
  if (req.url === '/headers-only') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('['); // the body never ends
    return;
  }
  if (req.url === '/slow') {
    setTimeout(() => res.end('{}'), 2000).unref();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, path: req.url }));
});
// Server-side sockets, so a test can wait until the connections a client gave up are really gone
// (and any error event of theirs has fired) instead of sleeping for a guessed time.
const serverSockets = new Set<Socket>();
server.on('connection', (socket: Socket) => {
  serverSockets.add(socket);
  socket.once('close', () => serverSockets.delete(socket));
});
/** Polls until the server has received this many /hang requests (the call is in flight). */
async function untilHanging(count: number): Promise<void> {
  while (hanging < count) await new Promise((r) => setTimeout(r, 5));
}
async function untilServerSocketsClosed(): Promise<void> {
  await Promise.all(
    [...serverSockets].map(
      (socket) =>
        new Promise((resolve) => (socket.closed ? resolve(null) : socket.once('close', resolve))),
    ),
  );
  await new Promise((resolve) => setImmediate(resolve));
}
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function client(baseUrl = origin, totalMs = 500, connections = 4): BackendClient {
  return new BackendClient({
    name: 'test',
    baseUrl,
    maxResponseBytes: MAX,
    connections,
    timeouts: { connectMs: 300, headersMs: totalMs, totalMs },
    injectHeaders: {},
  });
}
function clientWith(timeouts: { connectMs: number; headersMs: number; totalMs: number }) {
  return new BackendClient({
    name: 'test',
    baseUrl: origin,
    maxResponseBytes: MAX,
    connections: 4,
    timeouts,
    injectHeaders: {},
  });
}
const get = (path: string) => ({ method: 'GET', path, headers: {}, body: undefined });

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  process.off('uncaughtException', onUncaught);
});

test('a normal JSON answer comes back with status, content type and body text', async () => {
  const c = client();
  const outcome = await c.send(get('/ok'));
  assert.deepEqual(outcome, {
    kind: 'response',
    status: 200,
    contentType: 'application/json',
    body: '{"ok":true,"path":"/ok"}',
  });
  await c.close();
});

test('issue 27 trap 4: the ETag and Last-Modified response headers come back with the answer, no other header does', async () => {
  const c = client();
  const outcome = await c.send(get('/versioned'));
  assert.deepEqual(outcome, {
    kind: 'response',
    status: 200,
    contentType: 'application/json',
    body: '{"v":7}',
    etag: '"v7"',
    lastModified: 'Sun, 06 Nov 1994 08:49:37 GMT',
  });
  await c.close();
});

test('a POST carries its method, headers and JSON body; a non-200 success status and a charset come back as sent', async () => {
  const c = client();
  const body = JSON.stringify({ amount: { value: '12.30', currency: 'EUR' }, note: 'é ✓' });
  const outcome = await c.send({
    method: 'POST',
    path: '/echo',
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
    body,
  });
  assert.equal(outcome.kind, 'response');
  if (outcome.kind !== 'response') return;
  assert.equal(outcome.status, 201);
  assert.equal(outcome.contentType, 'application/json; charset=utf-8');
  assert.deepEqual(JSON.parse(outcome.body), {
    method: 'POST',
    contentType: 'application/json',
    requestId: 'req-42',
    body,
  });
  await c.close();
});

test('a declared Content-Length above the cap is refused without reading it, and nothing is thrown', async () => {
  const c = client();
  const outcome = await c.send(get('/declared-too-large'));
  assert.equal(outcome.kind, 'failure');
  assert.equal(outcome.kind === 'failure' && outcome.reason, 'too-large');
  // Close the pool and wait until the server has seen every connection go: any late error event of
  // the abandoned response has fired by then.
  await c.close();
  await untilServerSocketsClosed();
  assert.deepEqual(uncaught, []);
});

test('a chunked body that grows past the cap is cut off, and nothing is thrown', async () => {
  const c = client();
  const outcome = await c.send(get('/streamed-too-large'));
  assert.equal(outcome.kind === 'failure' && outcome.reason, 'too-large');
  // The pool is still usable afterwards.
  assert.equal((await c.send(get('/ok'))).kind, 'response');
  await c.close();
  await untilServerSocketsClosed();
  assert.deepEqual(uncaught, []);
});

test('a backend slower than the total timeout gives a timeout failure', async () => {
  const c = client(origin, 100);
  const outcome = await c.send(get('/slow'));
  assert.equal(outcome.kind === 'failure' && outcome.reason, 'timeout');
  await c.close();
});

test('a request still queued in the pool when its time is up times out and never reaches the backend', async () => {
  const c = client(origin, 150, 1); // one connection: the second request waits behind the slow one
  counted = 0;
  const [slow, queued] = await Promise.all([c.send(get('/slow')), c.send(get('/count'))]);
  assert.equal(slow.kind === 'failure' && slow.reason, 'timeout');
  assert.equal(queued.kind === 'failure' && queued.reason, 'timeout');
  // The pool has one connection and sends in order: had the timed-out request stayed queued, it would
  // reach the backend before this one does.
  assert.equal((await c.send(get('/ok'))).kind, 'response', 'the pool is usable afterwards');
  assert.equal(counted, 0, 'the timed-out request was not sent later');
  assert.match(queued.kind === 'failure' ? queued.message : '', /Nothing was sent/);
  await c.close();
});

test('a queued request the pool would start with less than its floor of budget left is not sent', async () => {
  // Deterministic form of the race above: the queued request is sent 5 ms after the slow one (a busy
  // wait, so a loaded machine cannot stretch the gap), so when the slow one's timeout cuts the only
  // connection and the pool starts the queued request, that request's own timer is still ≈ 5 ms away.
  // Its remaining budget is below the floor (30 ms of 300), so it must be abandoned there, not written
  // to the new connection and cut off 5 ms later. Without the floor this fails every time.
  assert.equal(startFloorMs(300), 30);
  const c = client(origin, 300, 1);
  counted = 0;
  const slow = c.send(get('/slow'));
  const sentAt = performance.now();
  while (performance.now() - sentAt < 5); // a deliberate busy wait
  const queued = await c.send(get('/count'));
  assert.equal(queued.kind === 'failure' && queued.reason, 'timeout');
  assert.match(queued.kind === 'failure' ? queued.message : '', /Nothing was sent/);
  const first = await slow;
  assert.equal(first.kind === 'failure' && first.reason, 'timeout');
  assert.match(
    first.kind === 'failure' ? first.message : '',
    /may or may not have been carried out/,
  );
  assert.equal((await c.send(get('/ok'))).kind, 'response', 'the pool is usable afterwards');
  assert.equal(counted, 0, 'the request was never written to the backend');
  await c.close();
});

test('the start floor is a tenth of the total timeout, at least 1 ms and at most 1 s', () => {
  assert.equal(startFloorMs(5), 1);
  assert.equal(startFloorMs(2000), 200);
  assert.equal(startFloorMs(60000), 1000);
});

test('a refused connection gives an unavailable failure that says nothing was sent', async () => {
  // Port 1 (tcpmux) is privileged and unused on any machine this runs on: nothing listens there, and no
  // other test can start listening on it meanwhile, unlike a port found free and then released.
  const c = client('http://127.0.0.1:1');
  const outcome = await c.send(get('/ok'));
  assert.equal(outcome.kind === 'failure' && outcome.reason, 'unavailable');
  assert.match(outcome.kind === 'failure' ? outcome.message : '', /Nothing was sent/);
  await c.close();
});

test('a headers timeout names the headers timer and its own value, not the total', async () => {
  const c = clientWith({ connectMs: 300, headersMs: 100, totalMs: 30000 });
  const outcome = await c.send(get('/hang'));
  assert.equal(outcome.kind === 'failure' && outcome.reason, 'timeout');
  const message = outcome.kind === 'failure' ? outcome.message : '';
  assert.match(message, /within 100 ms \(headers timeout\)/);
  assert.doesNotMatch(message, /30000/);
  await c.close();
});

test('the total timeout names the total timer and its value', async () => {
  const c = clientWith({ connectMs: 300, headersMs: 30000, totalMs: 150 });
  const outcome = await c.send(get('/headers-only'));
  assert.equal(outcome.kind === 'failure' && outcome.reason, 'timeout');
  const message = outcome.kind === 'failure' ? outcome.message : '';
  assert.match(message, /within 150 ms \(total timeout\)/);
  await c.close();
});

test('each undici failure maps to a message naming its own timer and value; a refused connection and an unreachable host are told apart', () => {
  const timeouts = { connectMs: 1111, headersMs: 2222, totalMs: 3333 };
  const message = (error: Error) => {
    const outcome = classifyFailure(error, timeouts);
    return outcome.kind === 'failure' ? outcome.message : '';
  };
  assert.match(message(new errors.ConnectTimeoutError()), /within 1111 ms, connect timeout/);
  assert.match(message(new errors.HeadersTimeoutError()), /within 2222 ms \(headers timeout\)/);
  assert.match(message(new errors.BodyTimeoutError()), /for 3333 ms \(body timeout\)/);
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  assert.match(message(refused), /refused the connection/);
  const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  assert.match(message(unknownHost), /host name or address is not reachable/);
});

test('destroy() ends in-flight and queued calls at once as shutdown failures, and so does a call sent after it', async () => {
  // Timeouts far beyond the test: only destroy() can end these calls.
  const c = new BackendClient({
    name: 'test',
    baseUrl: origin,
    maxResponseBytes: MAX,
    connections: 1, // the second call waits in the pool's queue behind the first
    timeouts: { connectMs: 300, headersMs: 60000, totalMs: 60000 },
    injectHeaders: {},
  });
  hanging = 0;
  const calls = [c.send(get('/hang')), c.send(get('/hang'))];
  await untilHanging(1);
  await c.destroy();
  for (const outcome of await Promise.all(calls)) {
    assert.equal(outcome.kind === 'failure' && outcome.reason, 'shutdown');
    assert.match(outcome.kind === 'failure' ? outcome.message : '', /shutting down/);
  }
  const late = await c.send(get('/ok'));
  assert.equal(late.kind === 'failure' && late.reason, 'shutdown', 'a call after destroy()');
});
