#!/usr/bin/env node
// `toolgate gateway --workers N`, measured through the real command (not part of `npm test`): the same
// 1.5 KB createPayment tools/call as run.mjs, key only (anonymous caller), warn logs, the Redis rate-limit
// store (--workers needs it), against the trivial backend. Each worker count is started, measured and
// stopped in turn, `--rounds` times interleaved; the table shows medians and the throughput ratio of each
// count to one worker. Nothing is pinned: the load generator, the backend and the workers share the
// machine's cores, so on a small machine the generator's own share bounds what more workers can show.
// Usage (after `npx tsc -p .`): REDIS_URL=redis://127.0.0.1:6379 node bench/compare/workers.mjs
//   [--workers 1,2] [--duration 10] [--connections 32] [--rounds 2]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, mcpHeaders } from './workload.mjs';
import {
  forkServer,
  measure,
  numberOption as arg,
  stopServer as stop,
} from '../gateway/measure.mjs';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  console.error('REDIS_URL must name a Redis server: --workers needs the Redis rate-limit store');
  process.exit(2);
}
const duration = arg('duration', 10);
const connections = arg('connections', 32);
const rounds = arg('rounds', 2);
const countsAt = process.argv.indexOf('--workers');
const counts = (countsAt > 0 ? process.argv[countsAt + 1] : '1,2').split(',').map(Number);
const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin', 'toolgate.js');
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-workers-bench-'));

function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `toolgate gateway --workers n --json` and resolves once its summary is printed. */
function startGateway(n, file) {
  const child = spawn(
    process.execPath,
    [bin, 'gateway', '--workers', String(n), '--json', '-c', file],
    {
      env: { ...process.env, REDIS_URL: redisUrl },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const line = stderr.split('\n').find((l) => l.startsWith('{') && l.includes('mcpUrl'));
      if (line) resolve({ child, mcpUrl: JSON.parse(line).mcpUrl });
    });
    child.once('exit', (code) => reject(new Error(`gateway exited (${code}): ${stderr}`)));
  });
}

function stopGateway(child) {
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const backend = await forkServer(join(root, 'bench/compare/servers.mjs'), ['backend']);
const file = join(scratch, 'config.json');
writeFileSync(
  file,
  JSON.stringify({
    dataDir: scratch,
    logging: { level: 'warn' },
    gateway: {
      port: await freePort(),
      backends: [
        {
          name: 'bench',
          baseUrl: `${backend.url}/api/v1`,
          openapi: { file: join(root, 'test/fixtures/openapi/fixture-backend.yaml') },
          approve: 'all',
          connections: 64,
        },
      ],
      auth: { devIdentityProvider: { enabled: false } },
      rateLimit: {
        store: 'redis',
        anonymous: { limit: 1_000_000, windowSeconds: 60 },
        subscriptionDefault: { limit: 1_000_000, windowSeconds: 60 },
        redis: { keyPrefix: `bench-workers:${process.pid}:` },
      },
    },
  }),
);
const created = spawnSync(
  process.execPath,
  [bin, 'keys', 'create', '--app', 'bench', '--env', 'development', '--json', '-c', file],
  { env: { ...process.env, REDIS_URL: redisUrl }, encoding: 'utf8' },
);
if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
const headers = {
  ...mcpHeaders,
  'ocp-apim-subscription-key': JSON.parse(created.stdout).primaryKey,
};

const results = new Map(counts.map((n) => [n, []]));
const loadBefore = loadavg()[0];
try {
  for (let round = 0; round < rounds; round++)
    for (const n of counts) {
      const gateway = await startGateway(n, file);
      try {
        results
          .get(n)
          .push(
            await measure(
              `${n} workers`,
              { url: gateway.mcpUrl, method: 'POST', headers, body: call },
              { duration, connections },
            ),
          );
      } finally {
        await stopGateway(gateway.child);
      }
    }
} finally {
  await stop(backend.child);
  rmSync(scratch, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `\nnode ${process.version}, ${cpus().length} cores, ${connections} connections, ${duration} s × ${rounds} rounds (medians), ` +
    `load average before ${loadBefore.toFixed(2)}, unpinned\n`,
);
console.log('| gateway workers | req/s | p50 ms | p99 ms | throughput / 1 worker |');
console.log('|---:|---:|---:|---:|---:|');
const base = median(results.get(counts[0]).map((r) => r.rps));
for (const n of counts) {
  const rs = results.get(n);
  const rps = median(rs.map((r) => r.rps));
  console.log(
    `| ${n} | ${rps.toFixed(0)} | ${median(rs.map((r) => r.p50)).toFixed(2)} | ${median(rs.map((r) => r.p99)).toFixed(2)} | ${(rps / base).toFixed(2)} |`,
  );
}
