import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectRedis } from '../../src/shared/redis.js';
import { REDIS_URL, skipWithoutRedis, uniqueName } from '../helpers/infra.js';

const settings = { connectTimeoutMs: 500, commandTimeoutMs: 500 };

test(
  'redis: connects, round-trips a value under a per-run prefix, and cleans up',
  { skip: skipWithoutRedis },
  async () => {
    const client = await connectRedis({ ...settings, url: REDIS_URL ?? '' });
    const key = `${uniqueName('toolgate-test')}:k`;
    try {
      await client.set(key, 'v', 'PX', 10000);
      assert.equal(await client.get(key), 'v');
    } finally {
      await client.del(key);
      await client.quit();
    }
  },
);

test('redis: an unreachable server gives an error naming the target with the password masked', async () => {
  await assert.rejects(
    connectRedis({ ...settings, url: 'redis://:hunter2hunter2@127.0.0.1:1' }),
    (error: Error) => {
      assert.equal(error.name, 'StoreUnavailableError');
      assert.match(error.message, /cannot connect to Redis at redis:\/\/:…@127\.0\.0\.1:1/);
      assert.equal(error.message.includes('hunter2hunter2'), false);
      return true;
    },
  );
});
