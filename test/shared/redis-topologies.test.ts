// Every Redis user through the one factory (src/shared/redis.ts) on a Sentinel set and on a Cluster, with
// real redis-server processes on loopback (test/helpers/redis-topology.ts), independent of REDIS_URL:
// the gateway's own connection (connectRedis), and the multi-key scripts of the rate-limit and budget
// stores, whose keys share one hash-tagged slot (a CROSSSLOT error would fail them on a cluster).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RedisBudgetStore } from '../../src/gateway/governance/budgets/redis-store.js';
import { RedisStore } from '../../src/gateway/ratelimit/redis-store.js';
import { connectRedis } from '../../src/shared/redis.js';
import {
  skipWithoutRedisServer,
  startCluster,
  startSentinelSet,
  type ClusterSet,
  type SentinelSet,
} from '../helpers/redis-topology.js';

const timeouts = { connectTimeoutMs: 3000, commandTimeoutMs: 1000 };

describe('Redis through Sentinel and Cluster URLs', { skip: skipWithoutRedisServer }, () => {
  let sentinel: SentinelSet | undefined;
  let cluster: ClusterSet | undefined;
  before(async () => {
    [sentinel, cluster] = await Promise.all([startSentinelSet(), startCluster()]);
  });
  after(async () => {
    await sentinel?.topology.stop();
    await cluster?.topology.stop();
  });

  it('connectRedis reaches the primary named by the sentinels, in the URL db', async () => {
    assert.ok(sentinel);
    const client = await connectRedis({ ...timeouts, url: `${sentinel.url}/2` });
    try {
      await client.set('k', 'v');
      assert.equal(await sentinel.primary.admin().get('k'), null); // not in db 0
      const onPrimary = sentinel.primary.admin();
      await onPrimary.select(2);
      assert.equal(await onPrimary.get('k'), 'v');
    } finally {
      client.disconnect();
    }
  });

  it('connectRedis refuses an unknown master set, naming the target without its password', async () => {
    assert.ok(sentinel);
    const url =
      sentinel.url.replace('redis+sentinel://', 'redis+sentinel://:hunter2hunter2@') + 'X';
    await assert.rejects(
      connectRedis({ ...timeouts, connectTimeoutMs: 500, url }),
      (error: Error) => {
        assert.equal(error.name, 'StoreUnavailableError');
        assert.match(
          error.message,
          /cannot connect to Redis at redis\+sentinel:\/\/:…@127\.0\.0\.1:/,
        );
        assert.equal(error.message.includes('hunter2'), false);
        return true;
      },
    );
  });

  it('on a cluster, connectRedis works and both stores run their multi-key scripts in one slot', async () => {
    assert.ok(cluster);
    const client = await connectRedis({ ...timeouts, url: cluster.url });
    assert.equal(await client.ping(), 'PONG');
    client.disconnect();

    const limits = new RedisStore({ url: cluster.url, keyPrefix: 'tg-t:', commandTimeoutMs: 1000 });
    const budgets = new RedisBudgetStore({
      url: cluster.url,
      keyPrefix: 'tg-b:',
      commandTimeoutMs: 1000,
    });
    try {
      await limits.ready();
      await budgets.ready();
      const checks = [
        { scope: 'user' as const, key: 'u:alice', limit: 2, windowMs: 60_000 },
        { scope: 'subscription' as const, key: 's:sub', limit: 10, windowMs: 60_000 },
        { scope: 'tool' as const, key: 't:sub:echo', limit: 10, windowMs: 60_000 },
      ];
      const allowed = [];
      for (let i = 0; i < 3; i++) allowed.push((await limits.consume(checks)).allowed);
      assert.deepEqual(allowed, [true, true, false]);

      const counters = [
        { key: 'u:alice:day', limitMinor: 500, ttlMs: 60_000 },
        { key: 's:sub:month', limitMinor: 10_000, ttlMs: 60_000 },
      ];
      assert.deepEqual(await budgets.reserve(counters, 300), { ok: true });
      assert.deepEqual(await budgets.reserve(counters, 300), {
        ok: false,
        index: 0,
        usedMinor: 300,
      });
      assert.equal(await budgets.release('r1', counters, 300, 60_000), true);
      assert.equal(await budgets.release('r1', counters, 300, 60_000), false);
      assert.equal(await budgets.used('s:sub:month'), 0);
    } finally {
      await limits.close();
      await budgets.close();
    }
  });
});
