#!/usr/bin/env node
// Gateway benchmark, production shape (not part of `npm test`): `toolgate gateway` in front of
// `toolgate payments`, each started from the CLI as an operator would, with one generated configuration
// file. Every gateway call goes through the whole pipeline: subscription key, a dev-IdP user JWT (one of
// `--users` users, round-robin), the per-user / per-subscription quotas, identity forwarding with the
// shared secret, argument and output validation, info-level JSON logs. The tool is the spec's example
// `getMyAccountBalance` (GET /accounts/v1/me/balance: the user's demo account and the ledger of their
// payments, read from the database).
//
// "Direct" sends the same request straight to the payment service with the identity headers the gateway
// would forward (X-User-Id, X-User-Email, X-Toolgate-Application, X-Toolgate-Gateway-Key), so both paths
// do the same backend work. Same load (connections, duration, users) for both, one run.
//
// Usage (after `npx tsc -p .`):
//   node bench/gateway/production.mjs [--duration 10] [--connections 32] [--users 1000]
//                                     [--limiter memory|redis] [--postgres] [--profile DIR]
//                                     [--log-level info]
// --limiter redis keeps the quotas in Redis (REDIS_URL, default redis://127.0.0.1:6379);
// --postgres puts both services' stores in PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
// --profile DIR writes a V8 CPU profile of the gateway process there (open it in Chrome DevTools).
// CPU per request is read from /proc/<pid>/stat of each service process (Linux only).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { measure, probe } from './measure.mjs';

const root = new URL('../..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const flag = (name) => process.argv.includes(`--${name}`);
const PROBE_WARMUP = 200; // untimed probe requests (their access lines are left out of the breakdown too)
const duration = Number(option('duration', '10'));
const connections = Number(option('connections', '32'));
const userCount = Number(option('users', '1000'));
const limiter = option('limiter', 'memory');
const logLevel = option('log-level', 'info');
if (limiter !== 'memory' && limiter !== 'redis')
  throw new Error('--limiter must be memory or redis');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const { paymentServiceBackends } = await import(dist('src/config/gateway-mcp.js'));
const { loadConfig } = await import(dist('src/config/load.js'));
const { mintDevToken } = await import(dist('src/cli/commands/token.js'));

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// ---- configuration: what an operator would write -------------------------------------------------
const dataDir = await mkdtemp(join(tmpdir(), 'toolgate-bench-'));
const [gatewayPort, paymentsPort] = [await freePort(), await freePort()];
const identitySecret = randomBytes(24).toString('base64url');
const bankKey = randomBytes(24).toString('base64url');
const paymentsOrigin = `http://127.0.0.1:${paymentsPort}`;
const schema = `bench_${process.pid}`;
const config = {
  environment: 'development',
  dataDir,
  logging: { level: logLevel },
  gateway: {
    host: '127.0.0.1',
    port: gatewayPort,
    ...(flag('postgres') ? { database: { url: databaseUrl, schema: `${schema}_gw` } } : {}),
    backends: paymentServiceBackends(
      paymentsOrigin,
      { 'api-key': bankKey },
      {
        mode: 'headers',
        sharedSecret: identitySecret,
        claims: { email: 'X-User-Email' },
        assertionTtlSeconds: 60,
      },
    ),
    // The default per-user quota (500 / 60 s) stays; many users share the load. The subscription's
    // quota is raised: one bench application sends everything.
    rateLimit: {
      store: limiter,
      subscriptionDefault: { limit: 1_000_000, windowSeconds: 60 },
      ...(limiter === 'redis'
        ? { redis: { url: redisUrl, keyPrefix: `bench:${process.pid}:` } }
        : {}),
    },
  },
  payments: {
    host: '127.0.0.1',
    port: paymentsPort,
    ...(flag('postgres') ? { database: { url: databaseUrl, schema: `${schema}_pay` } } : {}),
    identity: { sharedSecret: identitySecret },
    bankLookup: { apiKeys: [bankKey] },
  },
};
const configPath = join(dataDir, 'toolgate.json');
await writeFile(configPath, JSON.stringify(config, null, 2));
// Children get a clean environment: the configuration file alone decides the stores.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' };
const cli = join(root, 'bin/toolgate.js');

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args, '--config', configPath], {
      env,
      cwd: root,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`toolgate ${args[0]}: ${err || out}`)),
    );
  });
}

/** Starts a long-running CLI service; resolves once its JSON startup summary arrives on stderr. */
function serve(command) {
  const profile = option('profile', undefined); // folder for a V8 CPU profile of the gateway
  const node = command === 'gateway' && profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...node, cli, command, '--config', configPath, '--json'],
      {
        env,
        cwd: root,
        // Logs go to stdout, as in production; here into a file per service (read for the breakdown).
        stdio: ['ignore', openSync(join(dataDir, `${command}.log`), 'w'), 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const line = err.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, summary: JSON.parse(line) });
    });
    child.once('exit', (code) => reject(new Error(`toolgate ${command} exited ${code}: ${err}`)));
  });
}

/** utime + stime of a process in microseconds (Linux /proc; clock ticks of 10 ms). */
async function cpuMicros(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const stopAll = [];
let measured = false;
try {
  const key = JSON.parse(
    await run(['keys', 'create', '--app', 'bench', '--env', 'development', '--json']),
  );
  const subscriptionKey = key.primaryKey;
  const loaded = loadConfig({ configPath, env });
  const users = [];
  for (let i = 0; i < userCount; i++) {
    const sub = `bench-user-${i}`;
    const email = `${sub}@example.com`;
    const { token } = await mintDevToken(loaded, { sub, ttl: 3600, claims: { email } });
    users.push({ sub, email, token });
  }

  const payments = await serve('payments');
  stopAll.push(payments.child);
  const gateway = await serve('gateway');
  stopAll.push(gateway.child);
  const mcpUrl = gateway.summary.mcpUrl;
  const balanceUrl = `${payments.summary.paymentsUrl}/accounts/v1/me/balance`;

  const callBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'getMyAccountBalance', arguments: {} },
  });
  const gatewayHeaders = (u) => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    'ocp-apim-subscription-key': subscriptionKey,
    authorization: `Bearer ${u.token}`,
  });
  const directHeaders = (u) => ({
    accept: 'application/json',
    'x-user-id': u.sub,
    'x-user-email': u.email,
    'x-toolgate-application': 'bench',
    'x-toolgate-gateway-key': identitySecret,
  });

  // Sanity: both paths answer the same user's balance, and every user has an account before timing.
  for (const u of users) {
    const viaGateway = await request(mcpUrl, {
      method: 'POST',
      headers: gatewayHeaders(u),
      body: callBody,
    });
    const answer = await viaGateway.body.json();
    const item = answer.result?.structuredContent?.items?.[0];
    if (viaGateway.statusCode !== 200 || answer.result?.isError || !item?.accountId)
      throw new Error(`unexpected gateway answer for ${u.sub}: ${JSON.stringify(answer)}`);
    const direct = await request(balanceUrl, { headers: directHeaders(u) });
    const directItem = (await direct.body.json()).items?.[0];
    if (direct.statusCode !== 200 || directItem?.accountId !== item.accountId)
      throw new Error(`direct answer differs for ${u.sub}: ${JSON.stringify(directItem)}`);
  }

  /** Round-robin over the users; each request carries one user's identity. */
  const rotating = (method, url, headersFor, body) => {
    let next = 0;
    return {
      url,
      requests: [
        {
          method,
          ...(body ? { body } : {}),
          setupRequest: (req) => {
            const u = users[next++ % users.length];
            return { ...req, headers: headersFor(u) };
          },
        },
      ],
    };
  };

  /** Each probe request carries one user's identity and a request id findable in both services' logs. */
  const probeAt = (label, method, headersFor, body) => (i) => ({
    method,
    headers: { ...headersFor(users[i % users.length]), 'x-request-id': `probe-${label}-${i}` },
    body,
  });
  const probed = {
    count: 2000,
    warmup: PROBE_WARMUP,
    accept: (status, text) => status === 200 && !text.includes('"isError":true'),
  };
  const directProbe = await probe(balanceUrl, probeAt('direct', 'GET', directHeaders), probed);
  const gatewayProbe = await probe(
    mcpUrl,
    probeAt('gateway', 'POST', gatewayHeaders, callBody),
    probed,
  );
  const cpuOf = (child) => () => cpuMicros(child.pid);
  const load = { duration, connections };
  const direct = await measure(
    'direct to payment service',
    rotating('GET', balanceUrl, directHeaders),
    { ...load, cpuReaders: [cpuOf(payments.child)] },
  );
  const through = await measure(
    'tools/call getMyAccountBalance via gateway',
    rotating('POST', mcpUrl, gatewayHeaders, callBody),
    { ...load, cpuReaders: [cpuOf(payments.child), cpuOf(gateway.child)] },
  );

  const f = (n, d = 2) => n.toFixed(d);
  console.log(
    `\nnode ${process.version}, ${connections} connections, ${duration} s per run, ${userCount} users, ` +
      `limiter ${limiter}, stores ${flag('postgres') ? 'PostgreSQL' : 'SQLite'}, logs ${logLevel}\n`,
  );
  console.log('| run | req/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  for (const r of [direct, through])
    console.log(`| ${r.label} | ${f(r.rps, 0)} | ${f(r.p50)} | ${f(r.p99)} |`);
  console.log('');
  console.log(`throughput ratio (gateway / direct): ${f((through.rps / direct.rps) * 100, 1)} %`);
  console.log(
    `unloaded latency (1 connection, sequential): direct p50 ${f(directProbe.p50, 0)} µs / p99 ${f(directProbe.p99, 0)} µs; ` +
      `via gateway p50 ${f(gatewayProbe.p50, 0)} µs / p99 ${f(gatewayProbe.p99, 0)} µs; ` +
      `added p50 ${f((gatewayProbe.p50 - directProbe.p50) / 1000, 3)} ms, p99 ${f((gatewayProbe.p99 - directProbe.p99) / 1000, 3)} ms`,
  );
  measured = true;
  console.log(
    `CPU per request: payment service ${f(direct.cpuMicrosPerRequest[0] ?? 0, 0)} µs direct / ${f(through.cpuMicrosPerRequest[0] ?? 0, 0)} µs via gateway; ` +
      `gateway ${f(through.cpuMicrosPerRequest[1] ?? 0, 0)} µs per tools/call`,
  );
} finally {
  for (const child of stopAll.reverse()) {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  if (measured) await printBreakdown();
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * Where the unloaded gateway call's time goes, from the access lines of the probe requests (request ids
 * `probe-gateway-N`, forwarded by the gateway to the payment service): p50 of each part per request.
 */
async function printBreakdown() {
  const lines = async (service) =>
    (await readFile(join(dataDir, `${service}.log`), 'utf8'))
      .split('\n')
      .filter((l) => l.includes('"probe-gateway-'))
      .map((l) => JSON.parse(l))
      .filter((r) => r.msg === 'request' && Number(r.reqId.split('-')[2]) >= PROBE_WARMUP);
  const backend = new Map((await lines('payments')).map((r) => [r.reqId, r.ms]));
  const parts = { total: [], own: [], upstream: [], backend: [], hop: [] };
  for (const r of await lines('gateway')) {
    const b = backend.get(r.reqId);
    if (b === undefined || typeof r.upstreamMs !== 'number') continue;
    parts.total.push(r.ms);
    parts.own.push(r.ms - r.upstreamMs);
    parts.upstream.push(r.upstreamMs);
    parts.backend.push(b);
    parts.hop.push(r.upstreamMs - b);
  }
  const p50 = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return ((sorted[Math.floor(sorted.length / 2)] ?? NaN) * 1000).toFixed(0);
  };
  console.log(
    `unloaded gateway call, from the access lines (p50 of ${parts.total.length} calls): gateway handled it in ` +
      `${p50(parts.total)} µs = its own work ${p50(parts.own)} µs + upstream ${p50(parts.upstream)} µs ` +
      `(payment service handler ${p50(parts.backend)} µs, hop and client ${p50(parts.hop)} µs)`,
  );
}
