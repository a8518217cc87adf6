#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance, needs Node 22 — fetched with npx as
// the node@22 package, outside the project's dependencies) against a gateway started on a free port in
// front of the fixture OpenAPI backend (test/fixtures/openapi/fixture-backend.yaml). Compares each
// scenario's outcome with test/conformance/baseline.json (expected failures, each with its reason) and
// exits non-zero only on an unexpected failure. Needs a build first (`npx tsc -p .`).
// Usage: node scripts/conformance.mjs [--scenario NAME]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.16';

const { startFixtureBackend } = await import(dist('test/gateway/support/fixture-backend.js'));
const { startTestGateway, fixtureBackendConfig } = await import(
  dist('test/gateway/support/gateway.js')
);

const baseline = JSON.parse(readFileSync(join(root, 'test/conformance/baseline.json'), 'utf8'));
const expected = baseline.expectedFailures ?? {};
const onlyIndex = process.argv.indexOf('--scenario');
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;

const started = Date.now();
const backend = await startFixtureBackend();
const gw = await startTestGateway({ backends: [fixtureBackendConfig(backend.baseUrl)] });
const address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
const url = `${address.replace('127.0.0.1', 'localhost')}/mcp`;
const out = mkdtempSync(join(tmpdir(), 'toolgate-conformance-'));

const args = [
  '-y',
  '-p',
  'node@22',
  '-p',
  CONFORMANCE,
  '--',
  'conformance',
  'server',
  '--url',
  url,
  '-o',
  out,
];
if (only) args.push('--scenario', only);
console.log(`# conformance: ${CONFORMANCE} against ${url}`);
const code = await new Promise((resolve) => {
  const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  child.on('close', (c) => {
    if (process.env.CONFORMANCE_VERBOSE) console.log(log);
    resolve(c ?? 1);
  });
});
await gw.close();
await backend.close();

const results = collect(out);
rmSync(out, { recursive: true, force: true });
if (results.size === 0) {
  console.error(
    `conformance: no results were produced (runner exit code ${code}); is the npm registry reachable?`,
  );
  process.exit(1);
}

let unexpected = 0;
let passed = 0;
let expectedFailed = 0;
const stale = [];
for (const [scenario, failures] of [...results.entries()].sort()) {
  const reason = expected[scenario];
  if (failures.length === 0) {
    passed++;
    if (reason) stale.push(scenario);
    console.log(`  ok    ${scenario}`);
  } else if (reason) {
    expectedFailed++;
    console.log(`  xfail ${scenario} — ${reason}`);
  } else {
    unexpected++;
    console.log(`  FAIL  ${scenario}: ${failures.slice(0, 3).join('; ')}`);
  }
}
for (const s of stale)
  console.log(`# note: ${s} now passes; remove it from test/conformance/baseline.json`);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  `# conformance: ${passed} passed, ${expectedFailed} expected failures, ${unexpected} unexpected failures (${seconds} s)`,
);
process.exit(unexpected > 0 ? 1 : 0);

/** scenario → failure messages, from the runner's output directory (one checks.json per scenario). */
function collect(dir) {
  const found = new Map();
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === 'checks.json') {
        const checks = JSON.parse(readFileSync(full, 'utf8'));
        const scenario = scenarioName(d, dir);
        const failures = (Array.isArray(checks) ? checks : [])
          .filter((c) => c.status === 'FAILURE')
          .map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`);
        found.set(scenario, [...(found.get(scenario) ?? []), ...failures]);
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

function scenarioName(d, base) {
  const rel = d.slice(base.length + 1).split('/');
  // Output layout: <out>/server-<scenario>[-<timestamp>]/checks.json
  return (rel[0] ?? d).replace(/-\d{4}-\d{2}-\d{2}T.*$/, '').replace(/^server-/, '');
}
