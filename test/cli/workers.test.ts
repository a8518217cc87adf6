// `toolgate gateway --workers N` (tracker issue 17, multi-core): the real binary as an operator runs it.
// N processes behind one port must behave as one gateway: a quota is shared, not multiplied; a worker that
// dies is replaced while the others keep serving; SIGTERM stops every worker gracefully with exit code 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadConfig } from '../../src/config/load.js';
import { parseWorkers, workersRefusal } from '../../src/cli/workers.js';
import { UsageError } from '../../src/cli/args.js';
import { REDIS_URL, skipWithoutRedis, uniqueName } from '../helpers/infra.js';
import { freePort } from '../helpers/free-port.js';
import { finished, runCli, spawnCli } from '../helpers/process.js';

test('--workers takes "auto" or a whole number from 1 to 256', () => {
  assert.equal(parseWorkers(undefined), 1);
  assert.equal(parseWorkers('1'), 1);
  assert.equal(parseWorkers('4'), 4);
  assert.ok(parseWorkers('auto') >= 1);
  for (const bad of ['0', '257', '-1', '1.5', 'two', '', '0x2', '1e2'])
    assert.throws(() => parseWorkers(bad), UsageError, bad);
});

test('only toolgate gateway offers --workers; its help says what it needs', async () => {
  const help = await runCli(['gateway', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: toolgate gateway .*\[--workers N\|auto\]/m);
  assert.match(help.stdout, /Needs the Redis rate-limit store/);
  const other = await runCli(['payments', '--workers', '2']);
  assert.equal(other.code, 2, 'a usage error elsewhere');
  assert.match(other.stderr, /workers/);
});

test('a configuration that cannot run as several processes is refused, with the reason', () => {
  const base = { gateway: { port: 18991, auth: { devIdentityProvider: { enabled: false } } } };
  const config = (overrides: Record<string, unknown>, env: Record<string, string> = {}) =>
    loadConfig({ env, overrides });
  // The memory limiter counts per process: N workers would allow N times every quota.
  assert.match(workersRefusal(config(base), 2) ?? '', /needs the Redis rate-limit store/);
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
  assert.equal(workersRefusal(config(base, redis), 2), undefined);
  // The development authorization server keeps its sign-in state in one process.
  assert.match(
    workersRefusal(config({ gateway: { port: 18991 } }, redis), 2) ?? '',
    /development authorization server/,
  );
  assert.match(
    workersRefusal(config({ gateway: { ...base.gateway, port: 0 } }, redis), 2) ?? '',
    /fixed port/,
  );
});

/** Runs `body` with a configuration file (`settings` plus a fresh data folder), removed afterwards. */
async function withConfigFile(
  settings: Record<string, unknown>,
  body: (file: string) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-workers-'));
  try {
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ dataDir: dir, ...settings }));
    await body(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NO_DEV_IDP = { devIdentityProvider: { enabled: false } };

test('toolgate gateway --workers 2 without Redis exits 2 and says why, starting nothing', async () => {
  await withConfigFile({ gateway: { port: 18992, auth: NO_DEV_IDP } }, async (file) => {
    const run = await runCli(['gateway', '--workers', '2', '--config', file]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--workers 2 needs the Redis rate-limit store/);
    assert.doesNotMatch(run.stderr, /at .*\.js:\d+/, 'no stack trace');
  });
});

test('a worker that cannot start stops the others, and the command exits 1 with the cause', async () => {
  const settings = { gateway: { port: await freePort(), auth: NO_DEV_IDP } };
  await withConfigFile(settings, async (file) => {
    // Nothing listens on port 1: every worker fails to connect its Redis at startup.
    const run = await runCli(['gateway', '--workers', '2', '--config', file], {
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /toolgate gateway: .*(Redis|6379|127\.0\.0\.1:1)/i);
    const stopping = lines(run.stdout).find((l) => l.msg === 'stopping the workers');
    assert.ok(stopping, run.stdout);
    assert.doesNotMatch(run.stderr, /toolgate is running/);
  });
});

interface LogLine {
  readonly pid?: number;
  readonly msg?: string;
  readonly worker?: number;
  readonly code?: number | null;
  readonly url?: string;
  readonly status?: number;
}

function lines(stdout: string): LogLine[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
}

async function until(what: string, check: () => boolean, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test(
  'two workers serve one port with one shared quota and one /metrics, replace a killed worker, and stop with exit 0',
  { skip: skipWithoutRedis, timeout: 90000 },
  async () => {
    const port = await freePort();
    const anonymousLimit = 6;
    const settings = {
      logging: { level: 'info' },
      gateway: {
        port,
        auth: NO_DEV_IDP,
        rateLimit: {
          anonymous: { limit: anonymousLimit, windowSeconds: 60 },
          redis: { keyPrefix: `${uniqueName('workers')}:` },
        },
      },
    };
    await withConfigFile(settings, async (file) => {
      const env = { REDIS_URL: REDIS_URL ?? '' };
      const created = await runCli(
        ['keys', 'create', '--app', 'workers-test', '--env', 'development', '--json', '-c', file],
        env,
      );
      assert.equal(created.code, 0, created.stderr);
      const key = (JSON.parse(created.stdout) as { primaryKey: string }).primaryKey;

      const primary = spawnCli(['gateway', '--workers', '2', '--json', '--config', file], env);
      try {
        await until('the summary', () => primary.output.stderr.includes('"workers":2'));
        const summary = JSON.parse(
          primary.output.stderr.split('\n').find((l) => l.includes('"workers":2')) ?? '{}',
        ) as { mcpUrl: string; pids: number[] };
        assert.equal(summary.mcpUrl, `http://127.0.0.1:${port}/mcp`);
        assert.equal(summary.pids.length, 2);
        for (const pid of summary.pids) {
          const status = readFileSync(`/proc/${pid}/status`, 'utf8');
          assert.match(
            status,
            new RegExp(`^PPid:\\s+${primary.pid}$`, 'm'),
            'a child of the primary',
          );
        }

        // Each call on a connection of its own: node:cluster hands connections to the workers in turn.
        const call = async () => {
          const response = await request(summary.mcpUrl, {
            method: 'POST',
            reset: true,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'ocp-apim-subscription-key': key,
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          });
          await response.body.text();
          return response.statusCode;
        };
        const statuses: number[] = [];
        for (let i = 0; i < 2 * anonymousLimit; i++) statuses.push(await call());
        await until('the access lines', () =>
          lines(primary.output.stdout).some((l) => l.url === '/mcp' && l.status === 429),
        );
        const served = new Set(
          lines(primary.output.stdout)
            .filter((l) => l.url === '/mcp' && l.status !== undefined)
            .map((l) => l.pid),
        );
        assert.deepEqual(
          [...served].sort(),
          [...summary.pids].sort(),
          'both workers answered calls',
        );
        // One quota across both processes: per-process counting would have allowed all twelve.
        assert.equal(statuses.filter((s) => s === 200).length, anonymousLimit, String(statuses));
        assert.equal(statuses.filter((s) => s === 429).length, anonymousLimit, String(statuses));

        // /metrics answers for both workers together, whichever of them takes the scrape.
        const mcpRequests = async (): Promise<number> => {
          const scrape = await request(`http://127.0.0.1:${port}/metrics`, { reset: true });
          const text = await scrape.body.text();
          assert.equal(scrape.statusCode, 200, text);
          return text
            .split('\n')
            .filter((l) => l.startsWith('toolgate_mcp_requests_total{'))
            .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
        };
        assert.deepEqual(
          [await mcpRequests(), await mcpRequests()],
          [2 * anonymousLimit, 2 * anonymousLimit],
        );

        // A worker that dies is replaced; the gateway keeps answering meanwhile.
        const [victim, survivor] = summary.pids as [number, number];
        process.kill(victim, 'SIGKILL');
        await until('a replacement worker', () =>
          lines(primary.output.stdout).some(
            (l) =>
              l.pid === primary.pid &&
              l.msg === 'worker listening' &&
              l.worker !== victim &&
              l.worker !== survivor,
          ),
        );
        assert.equal(await call(), 429, 'still served, and the quota still spent');

        primary.kill('SIGTERM');
        const end = await finished(primary, 30000);
        assert.equal(end.code, 0, end.stderr);
        const stopped = lines(end.stdout).filter((l) => l.msg === 'worker stopped');
        assert.equal(stopped.length, 2);
        assert.ok(stopped.every((l) => l.code === 0));
        assert.throws(() => process.kill(survivor, 0), /ESRCH/, 'no worker left behind');
      } finally {
        if (primary.exitCode === null) primary.kill('SIGKILL');
      }
    });
  },
);
