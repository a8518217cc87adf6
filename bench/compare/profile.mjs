#!/usr/bin/env node
// Where the full configuration's CPU goes (not part of `npm test`): starts the backend and toolgate full
// exactly as `run.mjs` does, the toolgate process under `node --cpu-prof`, sends the same 1.5 KB
// tools/call for --duration seconds, stops it (which writes the profile) and prints the top functions by
// self time and the self time per area of the code. Open the .cpuprofile in Chrome DevTools for more.
// Usage (after `npx tsc -p .`): node bench/compare/profile.mjs [--duration 10] [--connections 32] [--top 30] [--dir DIR]
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchUser, call } from './workload.mjs';
import {
  forkServer,
  measure,
  cpuOf as cpu,
  numberOption as arg,
  stopServer as stop,
} from '../gateway/measure.mjs';

const duration = arg('duration', 10);
const connections = arg('connections', 32);
const top = arg('top', 30);
const dirAt = process.argv.indexOf('--dir');
const here = new URL('.', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'toolgate-profile-'));
const profileDir = dirAt === -1 ? join(scratch, 'profile') : process.argv[dirAt + 1];

const { jwk, token } = await benchUser();

const backend = await forkServer(join(here, 'servers.mjs'), ['backend'], undefined, []);
const keyFile = join(scratch, 'full.key');
const server = await forkServer(
  join(here, 'servers.mjs'),
  ['toolgate-full', backend.url, keyFile, jwk],
  undefined,
  ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
);
let result;
try {
  result = await measure(
    'toolgate full',
    {
      url: `${server.url}/mcp`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'ocp-apim-subscription-key': readFileSync(keyFile, 'utf8'),
        authorization: `Bearer ${token}`,
      },
      body: call,
    },
    { duration, connections, cpuReaders: [cpu(server.child)] },
  );
} finally {
  await stop(server.child);
  await stop(backend.child);
}

const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile in ${profileDir}`);
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));

// Self time per node from the samples (timeDeltas are µs between samples).
// Idle time is not CPU: left out, so the shares are of the time the process was running.
const idle = new Set(
  profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
);
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  if (!idle.has(id)) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map();
const byArea = new Map();
for (const node of profile.nodes) {
  const us = self.get(node.id) ?? 0;
  if (us === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'node_modules/');
  const short = where.replace(/^.*\/dist\//, 'dist/');
  const key =
    `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const area = short.startsWith('dist/src/')
    ? short.split('/').slice(2, 4).join('/').replace(/\.js$/, '')
    : short.startsWith('node_modules/')
      ? short
          .split('/')
          .slice(1, short.split('/')[1]?.startsWith('@') ? 3 : 2)
          .join('/')
      : short.startsWith('node:')
        ? short.split('/')[0].replace(/^node:internal\/?/, 'node:')
        : functionName || '(program)';
  byArea.set(area, (byArea.get(area) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1)} %`;
// The profile also holds start-up and the warm-up: µs per call spreads the measured CPU per call by share.
const perCall = (us) => ((us / total) * result.cpuMicrosPerRequest[0]).toFixed(1);
console.log(
  `\ntoolgate full, ${connections} connections, ${duration} s: ${result.rps.toFixed(0)} req/s, ` +
    `${result.cpuMicrosPerRequest[0].toFixed(0)} µs CPU per call; profile ${join(profileDir, file)}\n`,
);
console.log('| self time | µs per call | function |\n|---:|---:|---|');
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`| ${pct(us)} | ${perCall(us)} | \`${key}\` |`);
console.log('\n| self time | µs per call | area |\n|---:|---:|---|');
for (const [key, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`| ${pct(us)} | ${perCall(us)} | ${key} |`);
if (dirAt === -1) rmSync(scratch, { recursive: true, force: true });
