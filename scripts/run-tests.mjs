#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with Node's own test runner.
// Usage: node scripts/run-tests.mjs [filter-substring ...]
// The runner's summary (tests / pass / fail) is the last thing printed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const testRoot = join(root, 'dist', 'test');

function collect(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...collect(full));
    else if (name.endsWith('.test.js')) found.push(full);
  }
  return found;
}

const filters = process.argv.slice(2);
// tsc never deletes output: a test file removed from test/ keeps its compiled copy in dist/ until dist/ is
// cleaned. Only compiled files whose source still exists run; the others are named and left out.
const current = (file) =>
  existsSync(join(root, relative(join(root, 'dist'), file)).replace(/\.js$/, '.ts'));
const stale = collect(testRoot).filter((file) => !current(file));
for (const file of stale)
  console.log(`# left out ${relative(root, file)}: its source is gone (a stale build output)`);
const files = collect(testRoot).filter(
  (file) =>
    current(file) &&
    (filters.length === 0 || filters.some((f) => relative(root, file).includes(f))),
);
if (files.length === 0) {
  console.error('run-tests: no test files found under dist/test (did the build run?)');
  process.exit(1);
}

if (!process.env.DATABASE_URL)
  console.log('# DATABASE_URL not set: PostgreSQL suites will be skipped');
if (!process.env.REDIS_URL) console.log('# REDIS_URL not set: Redis suites will be skipped');

// TOOLGATE_TEST_CONCURRENCY sets how many test files run at once (default 2, the cores CI has);
// the suite must pass the same at 4 or more, since no test depends on timing or on another.
const concurrency = process.env.TOOLGATE_TEST_CONCURRENCY ?? '2';
if (!/^[1-9]\d*$/.test(concurrency)) {
  console.error(
    `run-tests: TOOLGATE_TEST_CONCURRENCY must be a positive integer, got "${concurrency}"`,
  );
  process.exit(2);
}

// The browser tests need Debian's chromium. Installing it (apt-get, as root) can take minutes on a fresh
// machine, longer than one test file may run, so it happens here, once, before any test starts; the suite
// itself only checks and says why it skips when the browser is still absent.
if (files.some((f) => f.includes('browser'))) {
  const { ensureChromium } = await import(join(testRoot, 'helpers', 'chromium.js'));
  const browser = ensureChromium();
  console.log(
    'path' in browser ? `# chromium: ${browser.path}` : `# chromium unavailable: ${browser.skip}`,
  );
}

// The reference-deployment and alert-rule suites (test/deploy/) need Debian's haproxy and prometheus
// (promtool); installed here once, like chromium, and each suite says why it skips when one is absent.
if (files.some((f) => f.includes(`${join('test', 'deploy')}/`))) {
  const { ensureDebianBinary } = await import(join(testRoot, 'helpers', 'debian-package.js'));
  for (const [binary, pkg] of [
    ['/usr/sbin/haproxy', 'haproxy'],
    ['/usr/bin/promtool', 'prometheus'],
  ]) {
    const found = ensureDebianBinary(binary, pkg);
    console.log(
      'path' in found ? `# ${pkg}: ${found.path}` : `# ${pkg} unavailable: ${found.skip}`,
    );
  }
}

const result = spawnSync(
  process.execPath,
  [
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=120000',
    ...files.map((f) => relative(root, f)),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TOOLGATE_TEST: '1' } },
);
process.exit(result.status ?? 1);
