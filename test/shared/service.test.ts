// Graceful shutdown: readiness fails at once, new connections are refused, in-flight requests finish,
// resources close after the HTTP side, and the grace period bounds the wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type Server } from 'node:http';
import { EventEmitter } from 'node:events';
import { createHttpApp } from '../../src/shared/http/create-app.js';
import { createLogger } from '../../src/shared/log/logger.js';
import { assembleService } from '../../src/shared/service.js';
import { shutdownOnSignal } from '../../src/shared/lifecycle.js';
import { LogCapture } from '../helpers/capture.js';

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once the listener has stopped accepting (polled, so no guessed sleep decides the test). */
async function untilNotListening(server: Server): Promise<void> {
  while (server.listening) await new Promise((r) => setTimeout(r, 5));
}

function buildService(order: string[]) {
  const { logger } = createLogger({ level: 'silent', destination: new LogCapture() });
  const app = createHttpApp({
    logger,
    bodyLimitBytes: 1024,
    requestTimeoutMs: 10000,
    keepAliveTimeoutMs: 5000,
  });
  let release: () => void = () => undefined;
  const started = new Promise<void>((resolveStarted) => {
    app.get('/slow', async () => {
      resolveStarted();
      await new Promise<void>((r) => (release = r));
      order.push('slow-finished');
      return { done: true };
    });
  });
  const service = assembleService({
    name: 'test',
    app,
    host: '127.0.0.1',
    port: 0,
    resources: [{ close: async () => void order.push('store-closed') }],
  });
  return { service, started, release: () => release() };
}

test('SIGTERM: readiness fails, in-flight request completes, new connections refused, stores closed last', async () => {
  const order: string[] = [];
  const { service, started, release } = buildService(order);
  const base = await service.listen();
  const inFlight = get(`${base}/slow`);
  await started;

  const signals = new EventEmitter();
  const { logger } = createLogger({ level: 'silent', destination: new LogCapture() });
  const done = shutdownOnSignal([service], { graceMs: 5000, logger, signals });
  signals.emit('SIGTERM');

  assert.equal(service.app.drain.draining, true, 'readiness fails as soon as the signal arrives');
  // The listener stops accepting: a new connection is refused.
  await untilNotListening(service.app.server);
  await assert.rejects(get(`${base}/healthz`), /ECONNREFUSED|ECONNRESET|socket hang up/);

  release();
  const response = await inFlight;
  assert.equal(response.status, 200);
  assert.deepEqual(JSON.parse(response.body), { done: true });
  await done;
  assert.deepEqual(order, ['slow-finished', 'store-closed']);
});

test('the grace period bounds shutdown: a request that never finishes is cut off', async () => {
  const order: string[] = [];
  const { service, started } = buildService(order);
  const base = await service.listen();
  const inFlight = get(`${base}/slow`).catch((error: Error) => error);
  await started;
  const t0 = Date.now();
  await service.close(200);
  const outcome = await inFlight;
  assert.ok(outcome instanceof Error, 'the hanging request was cut');
  assert.deepEqual(order, ['store-closed']);
  assert.ok(Date.now() - t0 < 5000);
});
