// Store outage against a real redis-server started on a spare port: stop it during a loop of
// decisions, then restart it. Decisions must keep coming (from the failure policy) and the circuit
// must close again on its own once Redis is back.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { parseRateLimitConfig } from '../../../src/gateway/ratelimit/config.js';
import { createRateLimiter } from '../../../src/gateway/ratelimit/limiter.js';
import { MemoryStore } from '../../../src/gateway/ratelimit/memory-store.js';
import { CountingMetrics } from '../../../src/gateway/ratelimit/metrics.js';
import { RedisStore } from '../../../src/gateway/ratelimit/redis-store.js';
import { ResilientStore } from '../../../src/gateway/ratelimit/resilient-store.js';
import type { LimitCheck, LimitDecision } from '../../../src/gateway/ratelimit/types.js';

const REDIS_SERVER = '/usr/bin/redis-server';
const skip = existsSync(REDIS_SERVER) ? false : `${REDIS_SERVER} not installed`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('real Redis outage', { skip }, () => {
  it('falls back while redis-server is down and recovers when it is back', async (t) => {
    const port = await freePort();
    let redis = await startRedis(port);
    const metrics = new CountingMetrics();
    const primary = new RedisStore({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 50 });
    await primary.ready();
    const store = new ResilientStore({
      primary,
      fallback: new MemoryStore({ sweepIntervalMs: 0 }),
      policy: 'fallback',
      failureThreshold: 3,
      cooldownMs: 200,
      metrics,
    });
    const check: LimitCheck = {
      scope: 'user',
      key: 'u:outage',
      limit: 1_000_000,
      windowMs: 60_000,
    };
    const timed = async (): Promise<{ d: LimitDecision; ms: number }> => {
      const start = performance.now();
      const d = await store.consume([check]);
      return { d, ms: performance.now() - start };
    };
    try {
      for (let i = 0; i < 20; i++) assert.equal((await timed()).d.degraded, undefined);

      await stopRedis(redis);
      const down: Array<{ d: LimitDecision; ms: number }> = [];
      for (let i = 0; i < 200; i++) {
        down.push(await timed());
        await sleep(2);
      }
      // Every decision while Redis is down came from the local fallback and admitted the request.
      assert.ok(down.every(({ d }) => d.allowed && d.degraded === 'fallback'));
      assert.equal(store.breakerState === 'closed', false);
      assert.ok(metrics.breakerStates.includes('open'));
      // While open, Redis is only probed once per cooldown: far fewer errors than decisions.
      const errors = [...metrics.counts]
        .filter(([k]) => k.startsWith('store_error'))
        .reduce((s, [, v]) => s + v, 0);
      assert.ok(errors < 50, `store errors ${errors}`);
      const slowest = Math.max(...down.map((x) => x.ms));
      t.diagnostic(
        `redis down: ${down.length} decisions, slowest ${slowest.toFixed(1)} ms, store errors ${errors}`,
      );

      redis = await startRedis(port);
      const deadline = Date.now() + 20_000;
      let recovered: LimitDecision | undefined;
      while (Date.now() < deadline) {
        const { d } = await timed();
        if (d.degraded === undefined) {
          recovered = d;
          break;
        }
        await sleep(20);
      }
      assert.ok(recovered, 'Redis decides again after restart');
      assert.equal(store.breakerState, 'closed');
      assert.equal(metrics.breakerStates.at(-1), 'closed');
      // The restarted Redis (no persistence) counts from zero: this is its first admission.
      assert.equal(recovered.checks[0]?.remaining, 1_000_000 - 1);
    } finally {
      await store.close();
      await stopRedis(redis);
    }
  });

  it('times out and falls back while redis-server hangs (SIGSTOP), recovers on SIGCONT', async (t) => {
    const port = await freePort();
    const redis = await startRedis(port);
    const metrics = new CountingMetrics();
    const primary = new RedisStore({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: 50 });
    await primary.ready();
    const store = new ResilientStore({
      primary,
      fallback: new MemoryStore({ sweepIntervalMs: 0 }),
      policy: 'fallback',
      failureThreshold: 3,
      cooldownMs: 200,
      metrics,
    });
    const check: LimitCheck = {
      scope: 'ip',
      key: 'ip:198.51.100.7',
      limit: 100_000,
      windowMs: 60_000,
    };
    try {
      assert.equal((await store.consume([check])).degraded, undefined);
      redis.kill('SIGSTOP');
      // Load: batches of 20 concurrent decisions while Redis does not answer.
      const hung: LimitDecision[] = [];
      for (let batch = 0; batch < 10; batch++) {
        hung.push(...(await Promise.all(Array.from({ length: 20 }, () => store.consume([check])))));
      }
      assert.ok(hung.every((d) => d.allowed && d.degraded === 'fallback'));
      assert.ok(metrics.get('store_error:timeout') >= 3, 'the command timeout fired');
      assert.equal(store.breakerState === 'closed', false);
      t.diagnostic(
        `redis hung: ${metrics.get('store_error:timeout')} timeouts for ${hung.length} decisions`,
      );
      redis.kill('SIGCONT');
      const deadline = Date.now() + 20_000;
      let back = false;
      while (!back && Date.now() < deadline) {
        back = (await store.consume([check])).degraded === undefined;
        if (!back) await sleep(20);
      }
      assert.ok(back, 'Redis decides again after SIGCONT');
      assert.equal(store.breakerState, 'closed');
    } finally {
      redis.kill('SIGCONT');
      await store.close();
      await stopRedis(redis);
    }
  });

  it('fail-closed answers 503 and fail-open admits when Redis is unreachable', async () => {
    const port = await freePort(); // nothing listens here
    const decide = async (onStoreFailure: 'closed' | 'open') => {
      const config = parseRateLimitConfig({
        store: 'redis',
        onStoreFailure,
        redis: { url: `redis://127.0.0.1:${port}` },
      });
      const metrics = new CountingMetrics();
      const limiter = createRateLimiter(config, { metrics });
      try {
        const r = await limiter.check({
          userId: 'u1',
          clientIp: '192.0.2.1',
          subscriptionId: 's1',
        });
        return { r, metrics };
      } finally {
        await limiter.close();
      }
    };
    const closed = await decide('closed');
    assert.equal(closed.r.status, 503);
    assert.equal(closed.r.headers['Retry-After'], '1');
    assert.equal(closed.r.error?.code, -31053);
    assert.equal(closed.metrics.get('decision:unavailable:fail-closed'), 1);
    const open = await decide('open');
    assert.equal(open.r.status, 200);
    assert.equal(open.r.decision.degraded, 'fail-open');
    assert.equal(open.metrics.get('decision:allowed:fail-open'), 1);
  });
});
