#!/usr/bin/env node
// Runs the MCP conformance suite (@modelcontextprotocol/conformance, needs Node 22 — fetched with npx as
// the node@22 package, outside the project's dependencies) against gateways started on free ports:
//   1. pinned             the pinned release (PINNED, the last stable line), its default scenarios;
//   2. newest             the newest published release (read from the registry at run time), its defaults;
//   3. newest-2026-07-28  the newest release with `--requirements 2026-07-28`, the stateless revision's set;
// these three at `/mcp` of a gateway in front of the fixture OpenAPI backend
// (test/fixtures/openapi/fixture-backend.yaml), compared with test/conformance/baseline.json; and
//   4. bundle-pinned      the pinned release at the tool bundle `/mcp/conformance` of a gateway that federates
//      two upstream MCP servers (issue 28, "MCP conformance server scenarios against a bundle endpoint
//      federating the reference server"): the MCP reference server `@modelcontextprotocol/server-everything`
//      (child process, Streamable HTTP, default prefix `everything_`) and the scenario server
//      (test/conformance/support/scenario-upstream.ts, toolPrefix ""), which offers the tools, prompts and
//      resources the scenarios call by name (test_simple_text, …): the suite's npm package ships no server of
//      its own, and server-everything's tools have other names. Compared with
//      test/conformance/baseline-bundle.json.
// A baseline's keys are a scenario (all its checks) or `scenario:check-id` (one check), each with the reason
// it cannot pass; scenarios the runner marks as not scored for a requirement set (extensions, pending) are
// reported but not compared. Exits non-zero only on an unexpected failure. Needs a build first
// (`npx tsc -p .`).
// Usage: node scripts/conformance.mjs [--scenario NAME] [--suite pinned|newest|newest-2026-07-28|bundle-pinned]
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
const { startEverything } = await import(dist('test/gateway/federation/support/everything.js'));
const { startScenarioUpstream } = await import(
  dist('test/conformance/support/scenario-upstream.js')
);

const BUNDLE = 'conformance';
const baselines = {
  fixture: readBaseline('test/conformance/baseline.json'),
  bundle: readBaseline('test/conformance/baseline-bundle.json'),
};
const option = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const only = option('--scenario');
const onlySuite = option('--suite');

const suites = [
  { name: 'pinned', target: 'fixture', version: () => PINNED, args: [] },
  { name: 'newest', target: 'fixture', version: newestVersion, args: [] },
  {
    name: 'newest-2026-07-28',
    target: 'fixture',
    version: newestVersion,
    args: ['--requirements', '2026-07-28'],
  },
  { name: 'bundle-pinned', target: 'bundle', version: () => PINNED, args: [] },
].filter((s) => onlySuite === undefined || s.name === onlySuite);
if (suites.length === 0) {
  console.error(`conformance: no suite is named ${onlySuite}`);
  process.exit(2);
}

const started = Date.now();
let unexpectedTotal = 0;
for (const target of ['fixture', 'bundle']) {
  const mine = suites.filter((s) => s.target === target);
  if (mine.length === 0) continue;
  const { url, close } = await (target === 'fixture'
    ? startFixtureGateway()
    : startBundleGateway());
  try {
    for (const suite of mine) unexpectedTotal += await runSuite(suite, url, baselines[target]);
  } finally {
    await close();
  }
  // A stale key is only known when every suite that reads the baseline ran.
  if (onlySuite === undefined && only === undefined) {
    const { file, expected, seenKeys } = baselines[target];
    for (const key of Object.keys(expected).filter((k) => !seenKeys.has(k)))
      console.log(`# note: ${key} failed in no suite; remove it from ${file}`);
  }
}
console.log(
  `# conformance: ${suites.length} suite(s), ${unexpectedTotal} unexpected failures (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
process.exit(unexpectedTotal > 0 ? 1 : 0);

function readBaseline(file) {
  const parsed = JSON.parse(readFileSync(join(root, file), 'utf8'));
  return { file, expected: parsed.expectedFailures ?? {}, seenKeys: new Set() };
}

/** `/mcp` of a gateway (open gatekeeper) in front of the fixture OpenAPI backend. */
async function startFixtureGateway() {
  const backend = await startFixtureBackend();
  const gw = await startTestGateway({ backends: [fixtureBackendConfig(backend.baseUrl)] });
  const address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    // localhost, not 127.0.0.1: dns-rebinding-protection needs a localhost URL.
    url: `${address.replace('127.0.0.1', 'localhost')}/mcp`,
    close: async () => {
      await gw.close();
      await backend.close();
    },
  };
}

/**
 * `/mcp/conformance` of a gateway (open gatekeeper) federating server-everything and the scenario server,
 * both as MCP backends with identity mode none; the bundle offers every tool of both, their resources and
 * their prompts.
 */
async function startBundleGateway() {
  const everything = await startEverything();
  const scenarios = await startScenarioUpstream();
  let gw;
  try {
    gw = await startTestGateway({
      backends: [
        {
          name: 'everything',
          mcp: {
            url: everything.url,
            securityClass: 'public',
            resources: { approve: ['demo://'] },
            prompts: { approve: 'all' },
          },
          identity: { mode: 'none' },
          approve: 'all',
        },
        {
          name: 'scenarios',
          mcp: {
            url: scenarios.url,
            // The scenarios call tools and prompts by their own names (test_simple_text, …).
            toolPrefix: '',
            securityClass: 'public',
            resources: { approve: ['test://'] },
            prompts: { approve: 'all' },
          },
          identity: { mode: 'none' },
          approve: 'all',
        },
      ],
      bundles: {
        [BUNDLE]: {
          title: 'Conformance',
          description: 'The MCP reference server and the conformance scenario server, federated.',
          tools: ['backend:everything', 'backend:scenarios'],
          resources: ['demo://', 'test://'],
          prompts: [
            'test_simple_prompt',
            'test_prompt_with_arguments',
            'test_prompt_with_embedded_resource',
            'test_prompt_with_image',
            'everything_simple-prompt',
            'everything_args-prompt',
          ],
        },
      },
    });
  } catch (error) {
    await scenarios.close();
    await everything.close();
    throw error;
  }
  const address = await gw.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `${address.replace('127.0.0.1', 'localhost')}/mcp/${BUNDLE}`,
    close: async () => {
      await gw.close();
      await scenarios.close();
      await everything.close();
    },
  };
}

/**
 * The newest version published on the registry (pre-releases included: the suite tracks the spec drafts);
 * asked once, and only when a suite needs it.
 */
function newestVersion() {
  newestVersion.known ??= readNewestVersion();
  return newestVersion.known;
}

function readNewestVersion() {
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

async function runSuite(suite, url, { file, expected, seenKeys }) {
  const version = suite.version();
  const out = mkdtempSync(join(tmpdir(), 'toolgate-conformance-'));
  const args = ['-y', '-p', 'node@22', '-p', `${PACKAGE}@${version}`, '--', 'conformance'];
  args.push('server', '--url', url, '-o', out, ...suite.args);
  if (only) args.push('--scenario', only);
  const label = `${PACKAGE}@${version}${suite.args.length ? ` ${suite.args.join(' ')}` : ''}`;
  console.log(`# conformance [${suite.name}]: ${label} against ${url} (baseline ${file})`);
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
