// Store outage against a real redis-server: stop it during a loop of decisions, then restart it.
// Decisions must keep coming (from the failure policy) and the circuit must close again on its own once
// Redis is back. redis-server listens on a Unix socket of this test's own; clients reach it through a TCP
// relay bound to port 0 here, so the address survives the restart and no other process can take it.
// Nothing depends on how fast the machine is: readiness and recovery are awaited, not slept for, and
// the probe count is bounded by the time the outage actually lasted.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import { parseRateLimitConfig } from '../../../src/config/gateway-ratelimit.js';
import { createRateLimiter } from '../../../src/gateway/ratelimit/limiter.js';
import { MemoryStore } from '../../../src/gateway/ratelimit/memory-store.js';
import { CountingMetrics } from '../../helpers/counting-metrics.js';
import { RedisStore } from '../../../src/gateway/ratelimit/redis-store.js';
import { ResilientStore } from '../../../src/gateway/ratelimit/resilient-store.js';
import type { LimitCheck, LimitDecision } from '../../../src/gateway/ratelimit/types.js';
import { startTcpRelay } from '../../helpers/tcp-relay.js';
import { rendered } from './rendered.js';

const REDIS_SERVER = '/usr/bin/redis-server';
const skip = existsSync(REDIS_SERVER) ? false : `${REDIS_SERVER} not installed`;

const scratch = mkdtempSync(join(tmpdir(), 'toolgate-redis-outage-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function startRedis(socket: string): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      '0',
      '--unixsocket',
      socket,
      '--unixsocketperm',
      '700',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    // A startup that never reports readiness fails the test instead of hanging it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not become ready: ${out}`));
    }, 15_000);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/ready to accept connections/i.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
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

/** Decides until one comes from Redis itself (not degraded), for at most 20 s. */
async function untilRedisDecides(decide: () => Promise<LimitDecision>): Promise<LimitDecision> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const decision = await decide();
    if (decision.degraded === undefined) return decision;
    await sleep(20);
  }
  throw new Error('Redis did not decide within 20 s');
}

describe('real Redis outage', { skip }, () => {
  it('falls back while redis-server is down and recovers when it is back', async (t) => {
    const socket = join(scratch, 'down.sock');
    let redis = await startRedis(socket);
    const relay = await startTcpRelay(socket);
    const metrics = new CountingMetrics();
    // A stopped server fails at once (closed connections), so the command timeout is not what this
    // test measures: a generous one keeps a slow machine from looking like an outage.
    const primary = new RedisStore({
      url: `redis://127.0.0.1:${relay.port}`,
      commandTimeoutMs: 2000,
    });
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
      await untilRedisDecides(async () => (await timed()).d);

      await stopRedis(redis);
      const outageStart = performance.now();
      const down: Array<{ d: LimitDecision; ms: number }> = [];
      for (let i = 0; i < 200; i++) {
        down.push(await timed());
        await sleep(2);
      }
      const outageMs = performance.now() - outageStart;
      // Every decision while Redis is down came from the local fallback and admitted the request.
      assert.ok(down.every(({ d }) => d.allowed && d.degraded === 'fallback'));
      assert.equal(store.breakerState === 'closed', false);
      assert.ok(metrics.breakerStates.includes('open'));
      // While open, Redis is only probed once per cooldown (200 ms): the failures that open the circuit
      // plus one per cooldown the outage lasted, however long the machine took for the 200 decisions.
      const errors = [...metrics.counts]
        .filter(([k]) => k.startsWith('store_error'))
        .reduce((s, [, v]) => s + v, 0);
      const bound = 3 + Math.ceil(outageMs / 200) + 1;
      assert.ok(errors <= bound && errors < down.length, `store errors ${errors}, bound ${bound}`);
      const slowest = Math.max(...down.map((x) => x.ms));
      t.diagnostic(
        `redis down: ${down.length} decisions, slowest ${slowest.toFixed(1)} ms, store errors ${errors}`,
      );

      redis = await startRedis(socket);
      const recovered = await untilRedisDecides(async () => (await timed()).d);
      assert.equal(store.breakerState, 'closed');
      assert.equal(metrics.breakerStates.at(-1), 'closed');
      // The restarted Redis (no persistence) counts from zero: this is its first admission.
      assert.equal(recovered.checks[0]?.remaining, 1_000_000 - 1);
    } finally {
      await store.close();
      await stopRedis(redis);
      await relay.close();
    }
  });

  it('times out and falls back while redis-server hangs (SIGSTOP), recovers on SIGCONT', async (t) => {
    const socket = join(scratch, 'hang.sock');
    const redis = await startRedis(socket);
    const relay = await startTcpRelay(socket);
    const metrics = new CountingMetrics();
    const primary = new RedisStore({
      url: `redis://127.0.0.1:${relay.port}`,
      commandTimeoutMs: 250,
    });
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
      await untilRedisDecides(() => store.consume([check]));
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
      await untilRedisDecides(() => store.consume([check]));
      assert.equal(store.breakerState, 'closed');
    } finally {
      redis.kill('SIGCONT');
      await store.close();
      await stopRedis(redis);
      await relay.close();
    }
  });

  it('fail-closed answers 503 and fail-open admits when Redis is unreachable', async () => {
    // The relay's socket has no server behind it: every connection is closed at once.
    const relay = await startTcpRelay(join(scratch, 'nobody.sock'));
    const decide = async (onStoreFailure: 'closed' | 'open') => {
      const config = parseRateLimitConfig({
        store: 'redis',
        onStoreFailure,
        redis: { url: `redis://127.0.0.1:${relay.port}` },
      });
      const metrics = new CountingMetrics();
      const limiter = createRateLimiter(config, { metrics });
      try {
        const r = rendered(
          await limiter.check({
            userId: 'u1',
            clientIp: '192.0.2.1',
            subscriptionId: 's1',
          }),
        );
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
    await relay.close();
  });
});
