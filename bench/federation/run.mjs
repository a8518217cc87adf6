#!/usr/bin/env node
// The added latency of a federated call (issue 28), not part of `npm test`: the same MCP tools/call of an
// upstream MCP server's `echo` tool, with the same body and the same client (undici, keep-alive),
//   direct   straight to the upstream: with `--upstream sdk` (the default) a stateless SDK server
//            (servers.mjs upstream), with `--upstream raw` a few lines of node:http (servers.mjs upstream-raw)
//   toolgate through toolgate, the upstream as its MCP backend (subscription key, no user)
// `--calls` timed calls after `--warmup` untimed ones, first sequentially on one connection, then with
// `--concurrency` calls in flight on as many connections; `--rounds` rounds, direct and toolgate
// interleaved, medians shown. Each server is its own process (its CPU per call is its own); the client is
// this process. Prints p50/p99 in µs, toolgate / direct ratios and the µs toolgate adds per call, the
// load average at start, and what the upstream received (so a re-initialize per call would show).
// Usage (after `npx tsc -p .`): node bench/federation/run.mjs [--calls 2000] [--warmup 500]
//   [--concurrency 8] [--rounds 3] [--message-bytes 100] [--upstream sdk|raw]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuOf, forkServer, numberOption as arg, stopServer as stop } from '../gateway/measure.mjs';
import { median, timedCalls } from '../support/timed-calls.mjs';

const calls = arg('calls', 2000);
const warmup = arg('warmup', 500);
const concurrency = arg('concurrency', 8);
const rounds = arg('rounds', 3);
const messageBytes = arg('message-bytes', 100);
const kind = (() => {
  const i = process.argv.indexOf('--upstream');
  const value = i > 0 ? process.argv[i + 1] : 'sdk';
  if (value !== 'sdk' && value !== 'raw') throw new Error(`--upstream: sdk or raw, not ${value}`);
  return value;
})();
const here = new URL('.', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-bench-federation-'));

const message = 'm'.repeat(messageBytes);
const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message } },
});
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** A call's answer is the echo, as a JSON-RPC result (either path). */
function check(label, status, text) {
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (status !== 200 || answer?.result?.content?.[0]?.text !== `echo: ${message}`)
    throw new Error(`${label}: unexpected answer HTTP ${status} ${text.slice(0, 300)}`);
}

const load = loadavg();
const upstream = await forkServer(join(here, 'servers.mjs'), [
  kind === 'sdk' ? 'upstream' : 'upstream-raw',
]);
let gateway;
try {
  gateway = await forkServer(join(here, 'servers.mjs'), [
    'toolgate',
    upstream.url,
    join(scratch, 'key'),
  ]);
  const key = readFileSync(join(scratch, 'key'), 'utf8');
  const upstreamCpu = cpuOf(upstream.child);
  const gatewayCpu = cpuOf(gateway.child);
  const targets = [
    { name: 'direct', url: upstream.url, headers, cpuReaders: [upstreamCpu] },
    {
      name: 'toolgate',
      url: gateway.url,
      headers: { ...headers, 'ocp-apim-subscription-key': key },
      cpuReaders: [upstreamCpu, gatewayCpu],
    },
  ];
  const stats = () =>
    new Promise((resolve) => {
      upstream.child.once('message', (m) => resolve(m.methods));
      upstream.child.send('stats');
    });

  const modes = [
    { name: 'sequential', inFlight: 1 },
    { name: `${concurrency} in flight`, inFlight: concurrency },
  ];
  const results = new Map();
  for (let round = 0; round < rounds; round++)
    for (const mode of modes)
      for (const target of targets) {
        const before = round === 0 ? await stats() : undefined;
        const r = await timedCalls(target, {
          body,
          check,
          count: calls,
          warm: warmup,
          inFlight: mode.inFlight,
        });
        const k = `${mode.name}|${target.name}`;
        results.set(k, [...(results.get(k) ?? []), r]);
        if (before && target.name === 'toolgate' && mode.inFlight === 1) {
          // What one federated call cost the upstream: only tools/call, no initialize per call.
          const after = await stats();
          const per = Object.fromEntries(
            Object.entries(after)
              .map(([m, n]) => [m, (n - (before[m] ?? 0)) / (calls + warmup)])
              .filter(([, n]) => n > 0),
          );
          results.set('upstream-per-call', per);
        }
      }

  const row = (mode, target) => {
    const rs = results.get(`${mode}|${target}`);
    return {
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      rps: median(rs.map((r) => r.rps)),
      upstreamCpu: median(rs.map((r) => r.cpu[0])),
      gatewayCpu: target === 'toolgate' ? median(rs.map((r) => r.cpu[1])) : undefined,
    };
  };
  const µs = (n) => n.toFixed(0);
  console.log(
    `\nnode ${process.version}, ${calls} calls after ${warmup} warm-up × ${rounds} rounds (medians), ` +
      `echo of ${messageBytes} bytes, ${kind === 'sdk' ? 'stateless SDK' : 'raw node:http'} upstream, load average at start ${load.map((l) => l.toFixed(2)).join(' ')}\n`,
  );
  console.log(
    '| mode | path | p50 µs | p99 µs | calls/s | upstream CPU µs/call | toolgate CPU µs/call |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const mode of modes)
    for (const target of targets) {
      const r = row(mode.name, target.name);
      console.log(
        `| ${mode.name} | ${target.name} | ${µs(r.p50)} | ${µs(r.p99)} | ${r.rps.toFixed(0)} | ${µs(r.upstreamCpu)} | ${r.gatewayCpu === undefined ? '' : µs(r.gatewayCpu)} |`,
      );
    }
  console.log('');
  for (const mode of modes) {
    const d = row(mode.name, 'direct');
    const t = row(mode.name, 'toolgate');
    console.log(
      `${mode.name}: toolgate / direct p50 ${(t.p50 / d.p50).toFixed(2)}×, p99 ${(t.p99 / d.p99).toFixed(2)}×; ` +
        `added per call p50 ${µs(t.p50 - d.p50)} µs, p99 ${µs(t.p99 - d.p99)} µs; ` +
        `throughput ${(t.rps / d.rps).toFixed(2)}×`,
    );
  }
  console.log(
    `upstream requests per federated call: ${JSON.stringify(results.get('upstream-per-call'))}`,
  );
} finally {
  if (gateway) await stop(gateway.child);
  await stop(upstream.child);
  rmSync(scratch, { recursive: true, force: true });
}
