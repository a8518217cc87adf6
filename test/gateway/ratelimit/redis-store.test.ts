// Redis store: the shared contract, Redis-specific properties, and two processes sharing one Redis.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { RedisStore } from '../../../src/gateway/ratelimit/redis-store.js';
import { storeContract } from './store-contract.js';

const url = process.env.REDIS_URL;
const skip = url ? false : 'REDIS_URL not set';
const runPrefix = `toolgate-test:rl:${randomBytes(4).toString('hex')}:`;
let storeNo = 0;

async function cleanup(): Promise<void> {
  if (!url) return;
  const admin = new Redis(url);
  const keys = await admin.keys(`{${runPrefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
}

after(cleanup);

storeContract({
  name: 'redis',
  skip,
  create: async (clock) => {
    const store = new RedisStore({
      url: url ?? '',
      keyPrefix: `${runPrefix}${++storeNo}:`,
      commandTimeoutMs: 2000,
      clock,
    });
    await store.ready();
    return store;
  },
});

describe('redis store specifics', { skip }, () => {
  it('uses the key prefix, sets a TTL of one window, and decides on server time by default', async () => {
    const prefix = `${runPrefix}ttl:`;
    const store = new RedisStore({ url: url ?? '', keyPrefix: prefix, commandTimeoutMs: 2000 });
    await store.ready();
    try {
      // A window long enough that three commands fit in it however slow the machine is.
      const check = { scope: 'user' as const, key: 'u:ttl', limit: 2, windowMs: 1000 };
      const first = await store.consume([check]);
      assert.equal(first.allowed, true);
      assert.ok((first.checks[0]?.resetMs ?? 0) > 0);
      const pttl = await store.client.pttl(`{${prefix}}u:ttl`);
      assert.ok(pttl > 0 && pttl <= 1000, `pttl ${pttl}`);
      await store.consume([check]);
      assert.equal((await store.consume([check])).allowed, false);
      // Real time: once the key's remaining TTL (read from Redis, not guessed) has passed, it has
      // expired and the quota is back. A timer never fires early, so a slow machine only waits longer.
      const remaining = await store.client.pttl(`{${prefix}}u:ttl`);
      await new Promise((r) => setTimeout(r, Math.max(remaining, 0) + 5));
      assert.equal(await store.client.exists(`{${prefix}}u:ttl`), 0);
      assert.equal((await store.consume([check])).allowed, true);
    } finally {
      await store.close();
    }
  });

  it('fails fast when Redis is unreachable', async () => {
    const store = new RedisStore({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 50 });
    try {
      await assert.rejects(store.consume([{ scope: 'ip', key: 'ip:x', limit: 1, windowMs: 1000 }]));
    } finally {
      await store.close();
    }
  });

  it('two processes sharing one Redis admit exactly 500 of 1,000 concurrent requests', async () => {
    const worker = fileURLToPath(new URL('./redis-worker.js', import.meta.url));
    const prefix = `${runPrefix}conc:`;
    const children = [0, 1].map(() =>
      spawn(process.execPath, [worker, url ?? '', prefix, 'u:bob', '500', '500'], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const lineOf = (child: (typeof children)[number], want: (l: string) => boolean) =>
      new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buf += chunk.toString();
          const line = buf.split('\n').find(want);
          if (line !== undefined) resolve(line);
        });
        child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
    await Promise.all(children.map((c) => lineOf(c, (l) => l === 'ready')));
    const results = children.map((c) => lineOf(c, (l) => l.startsWith('{')));
    for (const c of children) c.stdin.write('go\n');
    const parsed = (await Promise.all(results)).map(
      (l) => JSON.parse(l) as { admitted: number; total: number },
    );
    assert.deepEqual(
      parsed.map((p) => p.total),
      [500, 500],
    );
    const admitted = parsed.reduce((sum, p) => sum + p.admitted, 0);
    assert.equal(admitted, 500);
    const admin = new Redis(url ?? '');
    assert.equal(await admin.zcard(`{${prefix}}u:bob`), 500);
    await admin.quit();
  });
});
