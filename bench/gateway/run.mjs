#!/usr/bin/env node
// Gateway benchmark (not part of `npm test`). In one run, same load: tools/call through the gateway vs the
// same request sent straight to the backend; then tools/list with 1,000 tools. Gateway and backend run in
// their own processes so the gateway's CPU time per request can be measured.
// Usage (after `npx tsc -p .`): node bench/gateway/run.mjs [--duration 10] [--connections 32]
import { request } from 'undici';
import {
  cpuOf as cpu,
  forkServer,
  measure,
  numberOption as arg,
  probe,
  stopServer as stop,
} from './measure.mjs';

const duration = arg('duration', 10);
// CPU the fixture backend burns per request (0 = answers at once; 200 ≈ a service that validates and stores).
const backendWork = arg('backend-work-us', 0);
const connections = arg('connections', 32);
const here = new URL('.', import.meta.url).pathname;

const start = (...args) => forkServer(`${here}server-process.mjs`, args);

const backend = await start('backend', String(backendWork));
const gateway = await start('gateway', backend.url);
const large = await start('gateway', backend.url, 'large');
const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const callBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'getPayment', arguments: { paymentId: 'PO-1' } },
});

// Sanity: the gateway answers a real tool result.
const check = await request(gateway.url, {
  method: 'POST',
  headers: mcpHeaders,
  body: callBody,
}).then((r) => r.body.json());
if (check.result?.structuredContent?.id !== 'PO-1')
  throw new Error(`unexpected gateway answer: ${JSON.stringify(check)}`);

const probed = { count: 3000, warmup: 300 };
const run = { duration, connections };
const directProbe = await probe(`${backend.url}/payments/PO-1`, () => ({ method: 'GET' }), probed);
const gatewayProbe = await probe(
  gateway.url,
  () => ({ method: 'POST', headers: mcpHeaders, body: callBody }),
  probed,
);
const direct = await measure(
  'direct to backend',
  { url: `${backend.url}/payments/PO-1` },
  { ...run, cpuReaders: [cpu(backend.child)] },
);
const through = await measure(
  'tools/call via gateway',
  { url: gateway.url, method: 'POST', headers: mcpHeaders, body: callBody },
  { ...run, cpuReaders: [cpu(backend.child), cpu(gateway.child)] },
);
const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const listProbe = await probe(
  large.url,
  () => ({ method: 'POST', headers: mcpHeaders, body: listBody }),
  { count: 500, warmup: 300 },
);
const list = await measure(
  'tools/list, 1,000 tools (one page)',
  { url: large.url, method: 'POST', headers: mcpHeaders, body: listBody },
  { ...run, cpuReaders: [cpu(large.child)] },
);
for (const p of [backend, gateway, large]) await stop(p.child);

const f = (n, d = 2) => n.toFixed(d);
console.log(
  `\nnode ${process.version}, ${connections} connections, ${duration} s per run, backend work ${backendWork} µs/request\n`,
);
console.log('| run | req/s | p50 ms | p99 ms |');
console.log('|---|---:|---:|---:|');
for (const r of [direct, through, list])
  console.log(`| ${r.label} | ${f(r.rps, 0)} | ${f(r.p50)} | ${f(r.p99)} |`);
console.log('');
console.log(`throughput ratio (gateway / direct): ${f((through.rps / direct.rps) * 100, 1)} %`);
console.log(
  `added latency under load: p50 ${f(through.p50 - direct.p50)} ms, p99 ${f(through.p99 - direct.p99)} ms (autocannon, 1 ms resolution)`,
);
console.log(
  `unloaded latency (1 connection, sequential): direct p50 ${f(directProbe.p50, 0)} µs / p99 ${f(directProbe.p99, 0)} µs; ` +
    `via gateway p50 ${f(gatewayProbe.p50, 0)} µs / p99 ${f(gatewayProbe.p99, 0)} µs; ` +
    `added p50 ${f((gatewayProbe.p50 - directProbe.p50) / 1000, 3)} ms, p99 ${f((gatewayProbe.p99 - directProbe.p99) / 1000, 3)} ms`,
);
console.log(
  `gateway CPU per tools/call: ${f(through.cpuMicrosPerRequest[1] ?? 0, 0)} µs (backend: ${f(through.cpuMicrosPerRequest[0] ?? 0, 0)} µs)`,
);
console.log(
  `tools/list with 1,000 tools in one page: unloaded p50 ${f(listProbe.p50 / 1000, 3)} ms, p99 ${f(listProbe.p99 / 1000, 3)} ms; ` +
    `under load p50 ${f(list.p50)} ms, p99 ${f(list.p99)} ms; CPU ${f(list.cpuMicrosPerRequest[0] ?? 0, 0)} µs per list`,
);
