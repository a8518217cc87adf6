#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance, needs Node 22 — fetched with npx as
// the node@22 package, outside the project's dependencies) against a gateway started on a free port in
// front of the fixture OpenAPI backend (test/fixtures/openapi/fixture-backend.yaml), three times:
//   1. the pinned release (PINNED, the last stable line), its default scenarios;
//   2. the newest published release (read from the registry at run time), its default scenarios;
//   3. the newest release with `--requirements 2026-07-28`, the stateless revision's requirement set.
// Each failing check is compared with test/conformance/baseline.json, whose keys are a scenario (all its
// checks) or `scenario:check-id` (one check), each with the reason it cannot pass; scenarios the runner
// marks as not scored for a requirement set (extensions, pending) are reported but not compared. Exits
// non-zero only on an unexpected failure. Needs a build first (`npx tsc -p .`).
// Usage: node scripts/conformance.mjs [--scenario NAME] [--suite pinned|newest|newest-2026-07-28]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dist = (p) => join(root, 'dist', p);
const PACKAGE = '@modelcontextprotocol/conformance';
const PINNED = '0.1.16';

const { startFixtureBackend } = await import(dist('test/gateway/support/fixture-backend.js'));
const { startTestGateway, fixtureBackendConfig } = await import(
  dist('test/gateway/support/gateway.js')
);

const baseline = JSON.parse(readFileSync(join(root, 'test/conformance/baseline.json'), 'utf8'));
const expected = baseline.expectedFailures ?? {};
const option = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = option('--scenario');
const onlySuite = option('--suite');

const newest = newestVersion();
const suites = [
  { name: 'pinned', version: PINNED, args: [] },
  { name: 'newest', version: newest, args: [] },
  { name: 'newest-2026-07-28', version: newest, args: ['--requirements', '2026-07-28'] },
].filter((s) => onlySuite === undefined || s.name === onlySuite);

const started = Date.now();
const backend = await startFixtureBackend();
const gw = await startTestGateway({ backends: [fixtureBackendConfig(backend.baseUrl)] });
const address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
const url = `${address.replace('127.0.0.1', 'localhost')}/mcp`;

let unexpectedTotal = 0;
const seenKeys = new Set();
try {
  for (const suite of suites) unexpectedTotal += await runSuite(suite);
} finally {
  await gw.close();
  await backend.close();
}
const stale = Object.keys(expected).filter((k) => !seenKeys.has(k));
for (const key of stale)
  console.log(`# note: ${key} failed in no suite; remove it from test/conformance/baseline.json`);
console.log(
  `# conformance: ${suites.length} suite(s), ${unexpectedTotal} unexpected failures (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
process.exit(unexpectedTotal > 0 ? 1 : 0);

/** The newest version published on the registry (pre-releases included: the suite tracks the spec drafts). */
function newestVersion() {
  try {
    const versions = JSON.parse(
      execFileSync('npm', ['view', PACKAGE, 'versions', '--json'], { encoding: 'utf8' }),
    );
    const last = Array.isArray(versions) ? versions.at(-1) : versions;
    if (typeof last === 'string' && last !== '') return last;
  } catch (error) {
    console.error(`conformance: cannot read ${PACKAGE}'s versions from the registry: ${error}`);
    process.exit(1);
  }
  console.error(`conformance: the registry lists no version of ${PACKAGE}`);
  process.exit(1);
}

async function runSuite(suite) {
  const out = mkdtempSync(join(tmpdir(), 'toolgate-conformance-'));
  const args = ['-y', '-p', 'node@22', '-p', `${PACKAGE}@${suite.version}`, '--', 'conformance'];
  args.push('server', '--url', url, '-o', out, ...suite.args);
  if (only) args.push('--scenario', only);
  const label = `${PACKAGE}@${suite.version}${suite.args.length ? ` ${suite.args.join(' ')}` : ''}`;
  console.log(`# conformance [${suite.name}]: ${label} against ${url}`);
  const { code, log } = await new Promise((resolve) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.stderr.on('data', (d) => (text += d));
    child.on('close', (c) => {
      if (process.env.CONFORMANCE_VERBOSE) console.log(text);
      resolve({ code: c ?? 1, log: text });
    });
  });
  const results = collect(out);
  rmSync(out, { recursive: true, force: true });
  if (results.size === 0) {
    console.error(
      `conformance [${suite.name}]: no results were produced (runner exit code ${code}); is the npm registry reachable?\n${log.slice(-2000)}`,
    );
    return 1;
  }
  // "Not scored for <requirements>: … ✗ name (extension|pending)": outside the requirement set.
  const unscored = new Set(
    [...log.matchAll(/^\s+[✓✗] (\S+) \((?:extension|pending)\)\s*$/gm)].map((m) => m[1]),
  );
  let unexpected = 0;
  let passed = 0;
  let expectedFailed = 0;
  for (const [scenario, failures] of [...results.entries()].sort()) {
    if (unscored.has(scenario)) {
      console.log(`  --    ${scenario} (not scored: ${failures.length} failing checks)`);
      continue;
    }
    if (failures.length === 0) {
      passed++;
      console.log(`  ok    ${scenario}`);
      continue;
    }
    const surprising = [];
    const reasons = new Set();
    for (const failure of failures) {
      const reason = expected[`${scenario}:${failure.id}`] ?? expected[scenario];
      if (expected[`${scenario}:${failure.id}`] !== undefined)
        seenKeys.add(`${scenario}:${failure.id}`);
      else if (expected[scenario] !== undefined) seenKeys.add(scenario);
      if (reason === undefined) surprising.push(`${failure.id}: ${failure.message}`);
      else reasons.add(reason);
    }
    if (surprising.length === 0) {
      expectedFailed++;
      console.log(`  xfail ${scenario} — ${[...reasons].join(' / ')}`);
    } else {
      unexpected++;
      console.log(`  FAIL  ${scenario}: ${surprising.slice(0, 3).join('; ')}`);
    }
  }
  console.log(
    `# conformance [${suite.name}]: ${passed} passed, ${expectedFailed} expected failures, ${unexpected} unexpected failures, ${unscored.size} not scored`,
  );
  return unexpected;
}

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
          .map((c) => ({ id: String(c.id), message: c.errorMessage ?? c.description ?? '' }));
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
