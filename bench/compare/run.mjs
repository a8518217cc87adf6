#!/usr/bin/env node
// Side by side, in one process tree and one run (not part of `npm test`): the same 1.5 KB tools/call
// (createPayment, whose backend answers 201 with the payment) through
//   direct       the backend itself (a trivial node:http service), called with the payment body
//   passthrough  the floor: node:http → JSON-RPC parse → undici Pool.dispatch → JSON-RPC result
//   sdk          a stateless MCP server on the official TypeScript SDK, as the SDK's example builds it
//   lean         toolgate: subscription key, anonymous caller, warn logs
//   full         toolgate: key + JWT + per-user quota + identity headers + one info access line
// Each server is its own process, so its CPU per call is its own (process.cpuUsage over IPC). Where
// `taskset` exists the load generator runs on core 0 and the servers on the other cores. Waits (up to
// 60 s) for a quiet machine first. Prints one table and the ratios tracker issue 17 asks for.
// With REDIS_URL set, toolgate full runs a second time with the Redis rate-limit store, for the Redis /
// memory throughput ratio.
// Usage (after `npx tsc -p .`): npm run bench -- [--duration 10] [--connections 32] [--rounds 3]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { benchUser, call, mcpHeaders, payment } from './workload.mjs';
import {
  cpuOf as cpu,
  forkServer,
  measure,
  numberOption as arg,
  stopServer as stop,
} from '../gateway/measure.mjs';

const duration = arg('duration', 10);
const connections = arg('connections', 32);
const rounds = arg('rounds', 3);
const here = new URL('.', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-bench-'));

const hasTaskset = spawnSync('taskset', ['--version']).status === 0 && cpus().length >= 2;
const serverCores = hasTaskset ? `1-${cpus().length - 1}` : undefined;
if (hasTaskset)
  execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });

async function quiet() {
  const deadline = Date.now() + 60_000;
  while (loadavg()[0] > 0.5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2000));
  return loadavg()[0];
}

const start = (...args) =>
  forkServer(join(here, 'servers.mjs'), args, (child) => {
    if (serverCores)
      execFileSync('taskset', ['-p', '-c', serverCores, String(child.pid)], { stdio: 'ignore' });
  });

const { jwk, token } = await benchUser();
const mcp = mcpHeaders;

const load = await quiet();
const backend = await start('backend');
const targets = [
  {
    name: 'direct backend (node:http)',
    url: `${backend.url}/api/v1/payments`,
    body: JSON.stringify(payment),
    headers: { 'content-type': 'application/json' },
  },
  { name: 'passthrough floor (node:http → undici dispatch)', role: ['passthrough', backend.url] },
  { name: 'MCP TypeScript SDK, stateless', role: ['sdk', backend.url] },
  {
    name: 'toolgate lean (key, anonymous, warn logs)',
    role: ['toolgate-lean', backend.url, join(scratch, 'lean.key')],
    key: 'lean.key',
  },
  {
    name: 'toolgate full (key + JWT + user quota + identity headers + access line)',
    role: ['toolgate-full', backend.url, join(scratch, 'full.key'), jwk],
    key: 'full.key',
    bearer: true,
  },
];
const GOVERNED = 'toolgate full + governance rules that match no call (issue 25)';
targets.push({
  name: GOVERNED,
  role: ['toolgate-governed', backend.url, join(scratch, 'governed.key'), jwk],
  key: 'governed.key',
  bearer: true,
});
const redisUrl = process.env.REDIS_URL;
const FULL_REDIS = 'toolgate full, Redis rate-limit store';
if (redisUrl)
  targets.push({
    name: FULL_REDIS,
    role: ['toolgate-full', backend.url, join(scratch, 'redis.key'), jwk, redisUrl],
    key: 'redis.key',
    bearer: true,
  });

const results = new Map(targets.map((t) => [t.name, []]));
try {
  for (const target of targets) {
    if (!target.role) continue;
    const server = await start(...target.role);
    target.process = server.child;
    target.url = `${server.url}/mcp`;
    target.body = call;
    target.headers = { ...mcp };
    if (target.key)
      target.headers['ocp-apim-subscription-key'] = readFileSync(join(scratch, target.key), 'utf8');
    if (target.bearer) target.headers.authorization = `Bearer ${token}`;
    // Sanity: a real tool result with the payment the backend echoed.
    const check = await request(target.url, {
      method: 'POST',
      headers: target.headers,
      body: call,
    });
    const answer = await check.body.json();
    if (answer.result?.structuredContent?.id !== 'PO-1')
      throw new Error(`${target.name}: unexpected answer ${JSON.stringify(answer).slice(0, 300)}`);
  }
  for (let round = 0; round < rounds; round++)
    for (const target of targets) {
      const r = await measure(
        target.name,
        { url: target.url, method: 'POST', headers: target.headers, body: target.body },
        { duration, connections, cpuReaders: [cpu(target.process ?? backend.child)] },
      );
      results.get(target.name).push(r);
    }
} finally {
  for (const t of targets) if (t.process) await stop(t.process);
  await stop(backend.child);
  rmSync(scratch, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (name) => {
  const rs = results.get(name);
  return {
    rps: median(rs.map((r) => r.rps)),
    cpu: median(rs.map((r) => r.cpuMicrosPerRequest[0] ?? 0)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
  };
};
console.log(
  `\nnode ${process.version}, ${connections} connections, ${duration} s × ${rounds} rounds (medians), ` +
    `load average before ${load.toFixed(2)}, ${hasTaskset ? `load generator on core 0, servers on ${serverCores}` : 'no taskset: unpinned'}\n`,
);
console.log('| target | req/s | server CPU µs per call | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|---:|');
for (const t of targets) {
  const r = row(t.name);
  console.log(
    `| ${t.name} | ${r.rps.toFixed(0)} | ${r.cpu.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |`,
  );
}
const [, floor, sdk, , full] = targets.map((t) => row(t.name));
console.log(
  `\nfull toolgate CPU per call / passthrough floor: ${(full.cpu / floor.cpu).toFixed(2)}× (target ≤ 1.5×)`,
);
console.log(
  `full toolgate throughput / SDK server: ${(full.rps / sdk.rps).toFixed(1)}× (target ≥ 10×)`,
);
const governed = row(GOVERNED);
const direct = row(targets[0].name);
console.log(
  `server CPU per call / direct backend: full ${(full.cpu / direct.cpu).toFixed(2)}×, with rules matching nothing ${(governed.cpu / direct.cpu).toFixed(2)}×; governed / full: CPU ${(governed.cpu / full.cpu).toFixed(3)}, throughput ${(governed.rps / full.rps).toFixed(3)} (issue 25: no measurable cost)`,
);
if (redisUrl) {
  const redis = row(FULL_REDIS);
  console.log(
    `full toolgate throughput, Redis / memory rate-limit store: ${(redis.rps / full.rps).toFixed(2)} (target ≥ 0.9)`,
  );
} else console.log('(REDIS_URL not set: no Redis rate-limit row)');
