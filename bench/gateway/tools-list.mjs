#!/usr/bin/env node
// tools/list cost (not part of `npm test`): the demo catalogue (the payment service's two OpenAPI
// documents) and 1,000 generated tools, each in one page, protocol 2025-11-25. Unloaded latency of
// sequential calls on one keep-alive connection (p50/p99) and, under load, the gateway's CPU per list.
// Usage (after `npx tsc -p .`): node bench/gateway/tools-list.mjs [--duration 5] [--connections 8]
import {
  cpuOf as cpu,
  forkServer,
  measure,
  numberOption as arg,
  probe,
  stopServer as stop,
} from './measure.mjs';

const duration = arg('duration', 5);
const connections = arg('connections', 8);
const here = new URL('.', import.meta.url).pathname;
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

const backend = await forkServer(`${here}server-process.mjs`, ['backend']);
console.log(
  '| catalogue | tools | page bytes | unloaded p50 ms | unloaded p99 ms | CPU µs per list under load |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const variant of ['demo', 'large']) {
  const gateway = await forkServer(`${here}server-process.mjs`, ['gateway', backend.url, variant]);
  let size = 0;
  let count = 0;
  const unloaded = await probe(gateway.url, () => ({ method: 'POST', headers, body }), {
    count: 1000,
    warmup: 200,
    accept: (status, text) => {
      size = Buffer.byteLength(text);
      count = JSON.parse(text).result?.tools?.length ?? 0;
      return status === 200 && count > 0;
    },
  });
  const loaded = await measure(
    `tools/list ${variant}`,
    { url: gateway.url, method: 'POST', headers, body },
    { duration, connections, cpuReaders: [cpu(gateway.child)] },
  );
  await stop(gateway.child);
  console.log(
    `| ${variant === 'demo' ? 'demo (payment service)' : 'generated'} | ${count} | ${size} | ${(unloaded.p50 / 1000).toFixed(3)} | ${(unloaded.p99 / 1000).toFixed(3)} | ${loaded.cpuMicrosPerRequest[0].toFixed(0)} |`,
  );
}
await stop(backend.child);
