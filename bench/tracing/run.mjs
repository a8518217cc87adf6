#!/usr/bin/env node
// What tracing costs per tools/call (issue 29), not part of `npm test`: the same `tools/call getPayment`
// through three gateway processes that differ only in tracing —
//   off          no OTLP endpoint: no tracer provider, the API's no-op tracer
//   sampled-0    tracing on, OTEL_TRACES_SAMPLER=traceidratio, ARG 0: nothing recorded or exported
//   sampled-100  tracing on, always_on: every span recorded and exported (OTLP/HTTP protobuf, batched) to
//                a local receiver process that decodes them
// — in front of one fixture backend (node:http). `--calls` timed calls after `--warmup` untimed ones,
// first sequentially on one connection, then `--concurrency` in flight; `--rounds` rounds, the three
// gateways interleaved, medians shown. Prints p50/p99 in µs, calls/s, the gateway's CPU per call, the
// ratios to `off`, and the spans the receiver got per call at 100 %.
// Usage (after `npx tsc -p .`): node bench/tracing/run.mjs [--calls 2000] [--warmup 500]
//   [--concurrency 8] [--rounds 3]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuOf, forkServer, numberOption as arg, stopServer as stop } from '../gateway/measure.mjs';
import { median, timedCalls } from '../support/timed-calls.mjs';

const calls = arg('calls', 2000);
const warmup = arg('warmup', 500);
const concurrency = arg('concurrency', 8);
const rounds = arg('rounds', 3);
const here = new URL('.', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-bench-tracing-'));
const MODES = ['off', 'sampled-0', 'sampled-100'];

const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'getPayment', arguments: { paymentId: 'PO-1' } },
});
const baseHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

function check(label, status, text) {
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (status !== 200 || answer?.result === undefined)
    throw new Error(`${label}: unexpected answer HTTP ${status} ${text.slice(0, 300)}`);
}

const receiverStats = (receiver) =>
  new Promise((resolve) => {
    receiver.child.once('message', (m) => resolve(m.stats));
    receiver.child.send('stats');
  });

const load = loadavg();
const backend = await forkServer(join(here, 'servers.mjs'), ['backend']);
const receiver = await forkServer(join(here, 'servers.mjs'), ['receiver']);
const gateways = [];
try {
  for (const mode of MODES) {
    const keyFile = join(scratch, `key-${mode}`);
    const gateway = await forkServer(join(here, 'servers.mjs'), [
      'toolgate',
      mode,
      backend.url,
      keyFile,
      receiver.url,
    ]);
    gateways.push({
      name: mode,
      url: gateway.url,
      child: gateway.child,
      cpuReaders: [cpuOf(gateway.child)],
      headers: { ...baseHeaders, 'ocp-apim-subscription-key': readFileSync(keyFile, 'utf8') },
    });
  }
  const modes = [
    { name: 'sequential', inFlight: 1 },
    { name: `${concurrency} in flight`, inFlight: concurrency },
  ];
  const results = new Map();
  let spansAt100 = 0;
  let callsAt100 = 0;
  for (let round = 0; round < rounds; round++)
    for (const mode of modes)
      for (const target of gateways) {
        const before = (await receiverStats(receiver)).spans;
        const r = await timedCalls(target, {
          body,
          check,
          count: calls,
          warm: warmup,
          inFlight: mode.inFlight,
        });
        const k = `${mode.name}|${target.name}`;
        results.set(k, [...(results.get(k) ?? []), r]);
        // Batches leave every second (scheduledDelayMs 1000): wait for this run's last ones.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const received = (await receiverStats(receiver)).spans - before;
        if (target.name === 'sampled-100') {
          spansAt100 += received;
          callsAt100 += calls + warmup;
        } else if (received !== 0)
          throw new Error(`${target.name}: the receiver got ${received} spans (expected none)`);
      }

  const row = (mode, target) => {
    const rs = results.get(`${mode}|${target}`);
    return {
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      rps: median(rs.map((r) => r.rps)),
      cpu: median(rs.map((r) => r.cpu[0])),
    };
  };
  const µs = (n) => n.toFixed(0);
  console.log(
    `\nnode ${process.version}, tools/call getPayment, ${calls} calls after ${warmup} warm-up × ${rounds} rounds (medians), ` +
      `load average at start ${load.map((l) => l.toFixed(2)).join(' ')}\n`,
  );
  console.log('| mode | tracing | p50 µs | p99 µs | calls/s | gateway CPU µs/call | CPU / off |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const mode of modes) {
    const off = row(mode.name, 'off');
    for (const target of gateways) {
      const r = row(mode.name, target.name);
      console.log(
        `| ${mode.name} | ${target.name} | ${µs(r.p50)} | ${µs(r.p99)} | ${r.rps.toFixed(0)} | ${µs(r.cpu)} | ${(r.cpu / off.cpu).toFixed(2)}× |`,
      );
    }
  }
  console.log('');
  for (const mode of modes) {
    const off = row(mode.name, 'off');
    const parts = gateways.slice(1).map((target) => {
      const r = row(mode.name, target.name);
      return (
        `${target.name}: p50 ${(r.p50 / off.p50).toFixed(2)}×, CPU ${(r.cpu / off.cpu).toFixed(2)}× ` +
        `(+${µs(r.cpu - off.cpu)} µs/call), throughput ${(r.rps / off.rps).toFixed(2)}×`
      );
    });
    console.log(`${mode.name}, against off: ${parts.join('; ')}`);
  }
  console.log(
    `spans exported per call at 100 %: ${(spansAt100 / callsAt100).toFixed(2)} (none at off and at sampling 0)`,
  );
} finally {
  for (const gateway of gateways) await stop(gateway.child);
  await stop(receiver.child);
  await stop(backend.child);
  rmSync(scratch, { recursive: true, force: true });
}
