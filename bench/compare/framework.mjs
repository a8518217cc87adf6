#!/usr/bin/env node
// What fastify itself costs per request on the MCP endpoint's shape (not part of `npm test`): the same
// 1.5 KB JSON-RPC body read, parsed and answered with a 1.5 KB JSON buffer, once by a bare node:http
// handler and once by a fastify route registered as the gateway registers POST /mcp (a buffer content
// parser, one onRequest and one onResponse hook). No upstream call, no gateway code: the difference is
// the framework's request/reply lifecycle, the ceiling of what serving POST /mcp from bare node:http
// could save (docs/decisions.md, D-205).
// Usage: node bench/compare/framework.mjs [--duration 5] [--connections 32] [--rounds 2]
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import Fastify from 'fastify';
import { call, mcpHeaders } from './workload.mjs';
import {
  cpuOf,
  forkServer,
  measure,
  numberOption as arg,
  stopServer,
} from '../gateway/measure.mjs';

const answer = Buffer.from(
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'x'.repeat(1400) }] },
  }),
);

async function serve(kind) {
  if (kind === 'bare') {
    const server = createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
        res.end(answer);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${server.address().port}/mcp`;
  }
  const app = Fastify({ logger: false, bodyLimit: 1 << 20 });
  app.addHook('onRequest', async () => {});
  app.addHook('onResponse', async () => {});
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/mcp', async (req, reply) => {
    JSON.parse(req.body.toString('utf8'));
    return reply.code(200).type('application/json').send(answer);
  });
  return `${await app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
}

if (process.argv[2] === 'serve') {
  const url = await serve(process.argv[3]);
  process.send({ url });
  process.on('message', (m) => {
    if (m === 'cpu') process.send({ cpu: process.cpuUsage() });
    if (m === 'stop') process.exit(0);
  });
} else {
  const duration = arg('duration', 5);
  const connections = arg('connections', 32);
  const rounds = arg('rounds', 2);
  const pin = spawnSync('taskset', ['--version']).status === 0 && cpus().length >= 2;
  if (pin) execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const results = { bare: [], fastify: [] };
  for (let round = 0; round < rounds; round++)
    for (const kind of ['bare', 'fastify']) {
      const server = await forkServer(new URL(import.meta.url).pathname, ['serve', kind], (c) => {
        if (pin)
          execFileSync('taskset', ['-p', '-c', `1-${cpus().length - 1}`, String(c.pid)], {
            stdio: 'ignore',
          });
      });
      const r = await measure(
        kind,
        { url: server.url, method: 'POST', headers: mcpHeaders, body: call },
        { duration, connections, cpuReaders: [cpuOf(server.child)] },
      );
      results[kind].push(r);
      await stopServer(server.child);
    }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\n${duration} s × ${rounds} rounds (medians), ${pin ? 'pinned' : 'unpinned'}\n`);
  console.log('| server | req/s | CPU µs per request |');
  console.log('|---|---:|---:|');
  const cpu = {};
  for (const kind of ['bare', 'fastify']) {
    cpu[kind] = median(results[kind].map((r) => r.cpuMicrosPerRequest[0]));
    const rps = median(results[kind].map((r) => r.rps));
    console.log(
      `| ${kind === 'bare' ? 'bare node:http' : 'fastify route'} | ${rps.toFixed(0)} | ${cpu[kind].toFixed(1)} |`,
    );
  }
  console.log(`\nfastify's own cost: ${(cpu.fastify - cpu.bare).toFixed(1)} µs per request`);
}
