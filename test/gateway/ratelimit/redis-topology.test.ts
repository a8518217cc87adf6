// The rate limiter on multi-node Redis (issue 29; docs/operations.md "Redis and rate limiting"), with real
// redis-server processes on loopback (test/helpers/redis-topology.ts), independent of REDIS_URL:
// (a) Sentinel: the primary is killed with SIGKILL mid-load; the client follows the promoted replica, and
//     one key's admissions stay within the documented bound of `onStoreFailure: fallback`
//     (limit from the store + writes lost at failover + limit from the process's fallback).
// (b) Cluster: the slot of a busy key set is migrated to another master mid-load; decisions follow
//     ASK/MOVED/TRYAGAIN and stay exact (admitted == limit, no decision degraded).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseRateLimitConfig } from '../../../src/config/gateway-ratelimit.js';
import { createRateLimiter, type RateLimiter } from '../../../src/gateway/ratelimit/limiter.js';
import type { RateLimitContext } from '../../../src/gateway/ratelimit/policy.js';
import {
  skipWithoutRedisServer,
  startCluster,
  startSentinelSet,
  type ClusterSet,
  type RedisTopology,
} from '../../helpers/redis-topology.js';

const topologies: RedisTopology[] = [];
const limiters: RateLimiter[] = [];
after(async () => {
  for (const limiter of limiters) await limiter.close();
  for (const topology of topologies) await topology.stop();
});

interface Tally {
  storeAdmitted: number;
  storeRefused: number;
  fallbackAdmitted: number;
  fallbackRefused: number;
  otherDegraded: number;
}

/** `workers` loops deciding for `ctx` until `stop()` is true, pausing `pauseMs` between decisions. */
async function steadyLoad(
  limiter: RateLimiter,
  ctx: RateLimitContext,
  tally: Tally,
  stop: () => boolean,
  workers = 4,
  pauseMs = 5,
): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stop()) {
        const d = await limiter.check(ctx);
        if (d.degraded === undefined) {
          if (d.allowed) tally.storeAdmitted++;
          else tally.storeRefused++;
        } else if (d.degraded === 'fallback') {
          if (d.allowed) tally.fallbackAdmitted++;
          else tally.fallbackRefused++;
        } else tally.otherDegraded++;
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    }),
  );
}

const newTally = (): Tally => ({
  storeAdmitted: 0,
  storeRefused: 0,
  fallbackAdmitted: 0,
  fallbackRefused: 0,
  otherDegraded: 0,
});

const until = async (what: string, condition: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('rate limiter on Redis Sentinel', { skip: skipWithoutRedisServer }, () => {
  it(
    'follows the new primary after SIGKILL of the old one; one key stays within limit + lost writes + fallback limit',
    { timeout: 60_000 },
    async () => {
      const set = await startSentinelSet({
        replicas: 1,
        downAfterMs: 1000,
        failoverTimeoutMs: 3000,
      });
      topologies.push(set.topology);
      const limit = 150;
      const limiter = createRateLimiter(
        parseRateLimitConfig({
          store: 'redis',
          redis: { url: set.url, keyPrefix: 'tg-sentinel:', commandTimeoutMs: 250 },
          user: { limit, windowSeconds: 60 },
          subscriptionDefault: { limit: 1_000_000, windowSeconds: 60 },
          onStoreFailure: 'fallback',
          breaker: { failureThreshold: 3, cooldownMs: 200 },
        }),
      );
      limiters.push(limiter);
      assert.equal(await limiter.ready(5000), true);
      const ctx: RateLimitContext = {
        userId: 'alice',
        clientIp: '192.0.2.1',
        subscriptionId: 'sub',
      };
      const tally = newTally();
      let done = false;
      const load = steadyLoad(limiter, ctx, tally, () => done);

      await until('100 admissions from the store', () => tally.storeAdmitted >= 100);
      const oldPort = set.primary.port;
      const killedAt = Date.now();
      const beforeKill = { ...tally };
      await set.primary.kill('SIGKILL');
      await until('a promoted replica', async () => (await set.currentPrimaryPort()) !== oldPort);
      const promotedAfterMs = Date.now() - killedAt;
      const atPromotion = { ...tally };
      // Decisions from the store again: the client found the new primary (and the breaker closed).
      await until(
        'the store to decide again and enforce the limit',
        () => tally.storeRefused >= 20,
      );
      done = true;
      await load;

      const newPrimary = set.replicas[0];
      assert.ok(newPrimary);
      assert.equal(await set.currentPrimaryPort(), newPrimary.port);
      const recorded = await newPrimary.admin().zcard('{tg-sentinel:}u:alice');
      // Acknowledged by the old primary, never replicated: lost at the failover.
      const lost = tally.storeAdmitted - recorded;
      const report = {
        limit,
        promotedAfterMs,
        beforeKill,
        atPromotion,
        end: tally,
        recorded,
        lost,
      };
      console.log(`# sentinel failover: ${JSON.stringify(report)}`);

      assert.equal(tally.otherDegraded, 0);
      assert.ok(
        tally.fallbackAdmitted + tally.fallbackRefused > 0,
        'the outage was decided by the fallback',
      );
      assert.ok(lost >= 0 && lost <= 8, `lost writes ${lost} exceed the in-flight bound`);
      // The store never admits beyond its limit plus what the failover lost …
      assert.ok(tally.storeAdmitted <= limit + lost, `store admitted ${tally.storeAdmitted}`);
      // … and it did reach it (the quota applies again after the failover).
      assert.ok(tally.storeRefused > 0);
      assert.equal(recorded, limit);
      // The fallback counts on its own, within one limit per process.
      assert.ok(tally.fallbackAdmitted <= limit, `fallback admitted ${tally.fallbackAdmitted}`);
      assert.ok(tally.storeAdmitted + tally.fallbackAdmitted <= 2 * limit + lost);
    },
  );
});

describe('rate limiter on Redis Cluster', { skip: skipWithoutRedisServer }, () => {
  let cluster: ClusterSet | undefined;
  before(async () => {
    cluster = await startCluster({ masters: 3 });
    topologies.push(cluster.topology);
  });

  /**
   * Steady decisions for one user (three keys per script: user, subscription, tool) while the slot of
   * `prefix` moves to another master key by key, `pauseMs` between keys; then until the limit is
   * enforced. Policy `closed`: a store failure can only refuse, never admit.
   */
  async function migrateUnderLoad(prefix: string, pauseMs: number) {
    assert.ok(cluster);
    const limit = 400;
    const limiter = createRateLimiter(
      parseRateLimitConfig({
        store: 'redis',
        redis: { url: cluster.url, keyPrefix: prefix, commandTimeoutMs: 250 },
        user: { limit, windowSeconds: 60 },
        subscriptionDefault: { limit: 1_000_000, windowSeconds: 60 },
        perTool: { echo: { limit: 1_000_000, windowSeconds: 60 } },
        onStoreFailure: 'closed',
        breaker: { failureThreshold: 3, cooldownMs: 200 },
      }),
    );
    limiters.push(limiter);
    assert.equal(await limiter.ready(5000), true);
    const first = cluster.masters[0];
    assert.ok(first);
    const slot = Number(await first.admin().call('CLUSTER', 'KEYSLOT', `{${prefix}}u:alice`));
    const from = await cluster.ownerOf(slot);
    const to = cluster.masters.find((m) => m !== from);
    assert.ok(to);
    const ctx: RateLimitContext = {
      userId: 'alice',
      clientIp: '192.0.2.1',
      subscriptionId: 'sub',
      tool: 'echo',
    };
    const statsBefore = await cluster.errorStats();
    const tally = newTally();
    let done = false;
    const load = steadyLoad(limiter, ctx, tally, () => done);
    await until('100 admissions', () => tally.storeAdmitted >= 100);
    const atStart = { ...tally };
    const moved = await cluster.migrateSlot(slot, to, pauseMs);
    const atEnd = { ...tally };
    await until('the limit to be reached and enforced', () => tally.storeRefused >= 50);
    done = true;
    await load;
    const statsAfter = await cluster.errorStats();
    const redirects = Object.fromEntries(
      ['ASK', 'MOVED', 'TRYAGAIN'].map((k) => [k, (statsAfter[k] ?? 0) - (statsBefore[k] ?? 0)]),
    );
    const report = { pauseMs, limit, moved, atStart, atEnd, end: tally, redirects };
    console.log(`# cluster migration: ${JSON.stringify(report)}`);

    assert.equal(moved, 3);
    assert.equal((await cluster.ownerOf(slot)).port, to.port);
    assert.ok(
      (redirects.TRYAGAIN ?? 0) + (redirects.ASK ?? 0) > 0,
      'traffic met the half-moved slot',
    );
    assert.equal(tally.fallbackAdmitted + tally.fallbackRefused, 0);
    // Exact: every admission is counted in the slot's new home, and no more than the limit was admitted.
    assert.equal(tally.storeAdmitted, limit);
    assert.equal(await to.admin().zcard(`{${prefix}}u:alice`), limit);
    return { tally, atStart, atEnd };
  }

  it(
    'stays exact while the slot of the busy keys migrates (TRYAGAIN retried, nothing degraded)',
    { timeout: 60_000 },
    async () => {
      // 20 ms between keys: the half-moved slot lasts less than the client's TRYAGAIN retries.
      const { tally, atStart, atEnd } = await migrateUnderLoad('tg-cluster-a:', 20);
      assert.equal(tally.otherDegraded, 0);
      assert.ok(atEnd.storeAdmitted > atStart.storeAdmitted, 'admissions during the migration');
    },
  );

  it(
    'a migration longer than the retries counts as a store failure per onStoreFailure (closed: refused, still exact)',
    { timeout: 60_000 },
    async () => {
      // 1.5 s between keys: decisions meet TRYAGAIN longer than the retries last.
      const { tally } = await migrateUnderLoad('tg-cluster-b:', 1500);
      assert.ok(tally.otherDegraded > 0, 'decisions during the migration were store failures');
    },
  );
});
