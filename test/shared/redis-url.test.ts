// The Redis URL contract (src/shared/redis-url.ts, docs/operations.md "Redis and rate limiting"): the four
// forms, what each means, rejection of everything else at startup with the key named, and passwords masked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { configuredSecrets } from '../../src/cli/secrets.js';
import {
  maskRedisUrl,
  parseRedisUrl,
  redisUrlSecrets,
  RedisUrlError,
} from '../../src/shared/redis-url.js';
import { createRedisClient, hashTaggedPrefix } from '../../src/shared/redis.js';
import { Cluster, Redis } from 'ioredis';

test('redis:// and rediss:// are one server, passed to ioredis as written', () => {
  assert.deepEqual(parseRedisUrl('redis://:pw@cache:6380/2'), {
    kind: 'standalone',
    url: 'redis://:pw@cache:6380/2',
  });
  assert.equal(parseRedisUrl('rediss://cache').kind, 'standalone');
});

test('redis+sentinel:// names sentinels, the master set, the db, and both credentials', () => {
  assert.deepEqual(
    parseRedisUrl(
      'redis+sentinel://app:s%40cret@10.0.0.1:26380,sent-2,[::1]:26381/mymaster/3?sentinelPassword=sp&sentinelUsername=su',
    ),
    {
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26380 },
        { host: 'sent-2', port: 26379 },
        { host: '::1', port: 26381 },
      ],
      masterName: 'mymaster',
      db: 3,
      username: 'app',
      password: 's@cret',
      sentinelUsername: 'su',
      sentinelPassword: 'sp',
    },
  );
  assert.deepEqual(parseRedisUrl('redis+sentinel://h:1/m'), {
    kind: 'sentinel',
    sentinels: [{ host: 'h', port: 1 }],
    masterName: 'm',
    db: 0,
  });
});

test('redis+cluster:// names seed nodes (default port 6379) and the data password', () => {
  assert.deepEqual(parseRedisUrl('redis+cluster://:pw@a:7000,b'), {
    kind: 'cluster',
    nodes: [
      { host: 'a', port: 7000 },
      { host: 'b', port: 6379 },
    ],
    password: 'pw',
  });
});

test('every other form is refused with a reason and without the password', () => {
  const bad = [
    'http://cache:6379',
    'cache:6379',
    'redis://a:1,b:2',
    'redis://cache/db1',
    'redis+sentinel://:hunter2hunter2@a:1',
    'redis+sentinel://:hunter2hunter2@a:1/m/x',
    'redis+sentinel://a:1/m?password=hunter2hunter2',
    'redis+cluster://:hunter2hunter2@a:1/0',
    'redis+cluster://a:1?x=1',
    'redis+cluster://a:99999',
    'redis+cluster://',
    'redis+cluster://a b:1',
  ];
  for (const url of bad) {
    assert.throws(
      () => parseRedisUrl(url),
      (error: Error) => {
        assert.ok(error instanceof RedisUrlError, url);
        assert.equal(error.message.includes('hunter2'), false, url);
        return true;
      },
    );
  }
});

test('masking hides the data password and sentinelPassword in every form, parsed or not', () => {
  assert.equal(maskRedisUrl('redis://:pw12@h:1'), 'redis://:…@h:1');
  assert.equal(maskRedisUrl('redis://user:pw12@h:1/0'), 'redis://user:…@h:1/0');
  assert.equal(
    maskRedisUrl('redis+sentinel://u:p@ss@a:1,b:2/m?sentinelPassword=xyz&sentinelUsername=s'),
    'redis+sentinel://u:…@a:1,b:2/m?sentinelPassword=…&sentinelUsername=s',
  );
  assert.equal(maskRedisUrl('redis+cluster://:pw@a:1,b:2'), 'redis+cluster://:…@a:1,b:2');
  assert.equal(maskRedisUrl('redis+cluster://a:1,b:2'), 'redis+cluster://a:1,b:2');
  // A password with an unencoded '/' or '@' does not parse, and is still masked.
  assert.equal(maskRedisUrl('redis://u:p/w@rd@h'), 'redis://u:…@h');
});

test('the log redaction list gets both passwords of a Sentinel URL (gateway and rate-limit URLs)', () => {
  assert.deepEqual(redisUrlSecrets('redis+sentinel://:data-pw@a:1/m?sentinelPassword=sent-pw'), [
    'data-pw',
    'sent-pw',
  ]);
  assert.deepEqual(redisUrlSecrets('redis://:a%2Fb@h'), ['a/b']);
  const config = loadConfig({
    env: {},
    overrides: {
      gateway: {
        redis: { url: 'redis+cluster://:cluster-pw-1@a:1,b:2' },
        rateLimit: { redis: { url: 'redis+sentinel://a:1/m?sentinelPassword=sentinel-pw-2' } },
      },
    },
  });
  const secrets = configuredSecrets(config);
  assert.ok(secrets.includes('cluster-pw-1'));
  assert.ok(secrets.includes('sentinel-pw-2'));
});

test('startup refuses a bad Redis URL naming the key, with the password masked', () => {
  for (const [env, overrides, key] of [
    [{ REDIS_URL: 'redis+sentinel://:hunter2hunter2@a:1' }, {}, 'gateway.redis.url'],
    [{}, { gateway: { redis: { url: 'memcached://x' } } }, 'gateway.redis.url'],
    [
      {},
      { gateway: { rateLimit: { redis: { url: 'redis+cluster://:hunter2hunter2@a:1/5' } } } },
      'gateway.rateLimit.redis.url',
    ],
  ] as const) {
    assert.throws(
      () => loadConfig({ env, overrides }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.ok(error.message.startsWith(`${key}: `), error.message);
        assert.equal(error.message.includes('hunter2'), false);
        return true;
      },
    );
  }
  const ok = loadConfig({ env: { REDIS_URL: 'redis+sentinel://a:1,b:2/mymaster' } });
  assert.equal(ok.gateway.redis.url, 'redis+sentinel://a:1,b:2/mymaster');
});

test('the factory builds a Sentinel-mode client or a Cluster from the URL', () => {
  const sentinel = createRedisClient('redis+sentinel://127.0.0.1:1/mymaster', {
    commandTimeoutMs: 50,
    lazyConnect: true,
  });
  assert.ok(sentinel instanceof Redis);
  assert.equal(sentinel.options.name, 'mymaster');
  assert.deepEqual(sentinel.options.sentinels, [{ host: '127.0.0.1', port: 1 }]);
  assert.equal(sentinel.options.enableOfflineQueue, false);
  sentinel.disconnect();
  const cluster = createRedisClient('redis+cluster://127.0.0.1:1', {
    commandTimeoutMs: 50,
    lazyConnect: true,
  });
  assert.ok(cluster instanceof Cluster);
  assert.equal(cluster.options.enableOfflineQueue, false);
  assert.equal(cluster.options.redisOptions?.commandTimeout, 50);
  cluster.disconnect();
});

test('hash tags: a store prefix becomes the tag unless it already has one', () => {
  assert.equal(hashTaggedPrefix('toolgate:rl:'), '{toolgate:rl:}');
  assert.equal(hashTaggedPrefix('prod:{rl}:'), 'prod:{rl}:');
  assert.equal(hashTaggedPrefix('odd{}:'), '{odd{}:}');
});
