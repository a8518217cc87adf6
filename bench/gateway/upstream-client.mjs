#!/usr/bin/env node
// Micro-benchmark of the gateway's upstream call alone (not part of `npm test`): client CPU per request of
// `BackendClient.send` (undici `dispatch` with a handler, src/gateway/upstream/backend-client.ts) against
// undici's stream-based `pool.request` with the same timeout timer and body collection (what the client did
// before). Both alternate in one process against one `node:http` backend in a child process, 32 requests in
// flight, so the difference is measured under the same conditions.
// Usage (after `npx tsc -p .`): node bench/gateway/upstream-client.mjs [--requests 60000] [--rounds 3]
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Pool } from 'undici';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

if (process.argv[2] === 'backend') {
  const body = JSON.stringify({
    items: [
      {
        accountId: 'DE24370400445624438413',
        currency: 'EUR',
        availableBalance: 5000,
        bookedBalance: 5000,
        asOf: new Date().toISOString(),
      },
    ],
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
} else {
  const root = new URL('../..', import.meta.url).pathname;
  const { BackendClient } = await import(join(root, 'dist/src/gateway/upstream/backend-client.js'));
  const child = fork(new URL(import.meta.url).pathname, ['backend']);
  const port = await new Promise((resolve) => child.once('message', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const timeouts = { connectMs: 2000, headersMs: 10000, totalMs: 15000 };
  const headers = {
    accept: 'application/json',
    'x-user-id': 'bench-user-1',
    'x-request-id': 'b6f3c2d0-1a2b-4c5d-8e9f-0a1b2c3d4e5f',
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  };

  const client = new BackendClient({
    name: 'bench',
    baseUrl: origin,
    maxResponseBytes: 1048576,
    connections: 32,
    timeouts,
    injectHeaders: {},
  });
  const viaClient = async () => {
    const outcome = await client.send({ method: 'GET', path: '/balance', headers });
    return outcome.kind === 'response' ? outcome.status : 0;
  };

  const pool = new Pool(origin, {
    connections: 32,
    connectTimeout: timeouts.connectMs,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.totalMs,
    keepAliveTimeout: 30000,
    pipelining: 1,
  });
  const viaRequest = async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeouts.totalMs);
    try {
      const res = await pool.request({
        method: 'GET',
        path: '/balance',
        headers,
        signal: controller.signal,
      });
      const chunks = [];
      await new Promise((resolve, reject) => {
        res.body.on('data', (chunk) => chunks.push(chunk));
        res.body.once('end', resolve);
        res.body.once('error', reject);
      });
      Buffer.concat(chunks).toString('utf8');
      return res.statusCode;
    } finally {
      clearTimeout(timer);
    }
  };

  const inFlight = 32;
  const run = async (call, n) => {
    let left = n;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (left-- > 0) if ((await call()) !== 200) throw new Error('unexpected status');
      }),
    );
  };
  const measure = async (call, n) => {
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    await run(call, n);
    const cpu = process.cpuUsage(cpu0);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return { cpu: (cpu.user + cpu.system) / n, rps: n / seconds };
  };

  const requests = option('requests', 60000);
  const rounds = option('rounds', 3);
  await run(viaClient, 20000); // warm-up both paths
  await run(viaRequest, 20000);
  console.log(
    `node ${process.version}, ${requests} requests per path per round, ${inFlight} in flight\n`,
  );
  console.log(
    '| round | BackendClient.send (dispatch) µs CPU / call | pool.request + stream µs CPU / call | saved |',
  );
  console.log('|---:|---:|---:|---:|');
  for (let round = 1; round <= rounds; round++) {
    const a = await measure(viaClient, requests);
    const b = await measure(viaRequest, requests);
    console.log(
      `| ${round} | ${a.cpu.toFixed(1)} (${a.rps.toFixed(0)} req/s) | ${b.cpu.toFixed(1)} (${b.rps.toFixed(0)} req/s) | ${((1 - a.cpu / b.cpu) * 100).toFixed(0)} % |`,
    );
  }
  await client.close();
  await pool.close();
  child.kill();
}
