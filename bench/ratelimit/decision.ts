// Rate-limiter benchmark: cost of one decision (memory vs Redis, same run), memory per tracked
// key, heap after 1,000,000 distinct IPs. Not part of the test suite.
//   npx tsc -p . && REDIS_URL=redis://127.0.0.1:6379 node --expose-gc dist/bench/ratelimit/decision.js
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { MemoryStore } from '../../src/gateway/ratelimit/memory-store.js';
import { RedisStore } from '../../src/gateway/ratelimit/redis-store.js';
import type { LimitCheck, RateLimitStore } from '../../src/gateway/ratelimit/types.js';

const gc = (globalThis as { gc?: () => void }).gc;
const redisUrl = process.env['REDIS_URL'];

function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A realistic decision: user + subscription (+ tool every 4th), over 1,000 users, 50 subscriptions. */
function checksFor(i: number): LimitCheck[] {
  const checks: LimitCheck[] = [
    { scope: 'user', key: `u:user${i % 1000}`, limit: 500, windowMs: 60_000 },
    { scope: 'subscription', key: `s:sub${i % 50}`, limit: 1_000_000, windowMs: 60_000 },
  ];
  if (i % 4 === 0)
    checks.push({ scope: 'tool', key: `t:sub${i % 50}:getX`, limit: 1000, windowMs: 60_000 });
  return checks;
}

async function run(
  store: RateLimitStore,
  n: number,
  inFlight: number,
): Promise<{ perSec: number; usPer: number }> {
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < n) await store.consume(checksFor(next++));
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const ms = performance.now() - start;
  return { perSec: (n / ms) * 1000, usPer: (ms * 1000) / n };
}

const rows: Array<[string, string, string]> = [];
const row = (name: string, r: { perSec: number; usPer: number }) =>
  rows.push([name, Math.round(r.perSec).toLocaleString('en'), r.usPer.toFixed(2)]);

// 1. Decision cost.
{
  const mem = new MemoryStore({ sweepIntervalMs: 0 });
  await run(mem, 50_000, 1); // warm-up
  const m = await run(mem, 500_000, 1);
  row('memory, sequential', m);
  await mem.close();
  if (redisUrl) {
    const prefix = `toolgate-bench:rl:${randomBytes(4).toString('hex')}:`;
    const store = new RedisStore({ url: redisUrl, keyPrefix: prefix, commandTimeoutMs: 5000 });
    await store.ready();
    await run(store, 2_000, 1);
    const seq = await run(store, 20_000, 1);
    row('redis, sequential (1 in flight)', seq);
    const conc = await run(store, 100_000, 64);
    row('redis, 64 in flight', conc);
    rows.push(['ratio memory/redis (sequential)', `${(m.perSec / seq.perSec).toFixed(1)}x`, '']);
    rows.push(['ratio memory/redis (64 in flight)', `${(m.perSec / conc.perSec).toFixed(1)}x`, '']);
    // Redis memory per key (MEMORY USAGE), for a log of 1 and of 500 entries.
    const admin = new Redis(redisUrl);
    for (let i = 0; i < 500; i++)
      await store.consume([{ scope: 'user', key: 'u:full', limit: 500, windowMs: 60_000 }]);
    await store.consume([{ scope: 'ip', key: 'ip:one', limit: 50, windowMs: 60_000 }]);
    const one = await admin.memory('USAGE', `${prefix}ip:one`);
    const full = await admin.memory('USAGE', `${prefix}u:full`);
    console.log(`redis MEMORY USAGE: key with 1 entry ${one} B, key with 500 entries ${full} B`);
    const keys = await admin.keys(`${prefix}*`);
    for (let i = 0; i < keys.length; i += 1000) await admin.del(...keys.slice(i, i + 1000));
    await admin.quit();
    await store.close();
  } else {
    console.log('REDIS_URL not set: Redis figures skipped');
  }
}
console.log('\ndecision cost (user + subscription checks, + tool check every 4th request)');
console.table(
  rows.map(([name, perSec, us]) => ({ run: name, 'decisions/s': perSec, 'µs/decision': us })),
);

// 2. Memory per tracked key (memory store, no eviction).
if (!gc) console.log('run with --expose-gc for memory figures');
const perKey = (label: string, keys: number, limit: number, perKeyRequests: number) => {
  const store = new MemoryStore({ maxKeys: 10_000_000, sweepIntervalMs: 0 });
  const before = heap();
  for (let k = 0; k < keys; k++) {
    const check: LimitCheck = {
      scope: 'ip',
      key: `ip:10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`,
      limit,
      windowMs: 60_000,
    };
    for (let r = 0; r < perKeyRequests; r++) store.consumeSync([check]);
  }
  const after = heap();
  console.log(
    `${label}: ${((after - before) / keys).toFixed(0)} bytes per key (${keys.toLocaleString('en')} keys)`,
  );
  void store.close();
};
console.log('\nmemory per tracked key (heapUsed delta after gc)');
perKey('anonymous IP, 1 request in window', 200_000, 50, 1);
perKey('anonymous IP, 50 requests in window (full log)', 50_000, 50, 50);
perKey('user, 500 requests in window (full log)', 2_000, 500, 500);

// 3. A flood of 1,000,000 distinct IPs against the default bound (maxKeys 100,000).
{
  const before = heap();
  const store = new MemoryStore({ sweepIntervalMs: 0 });
  const start = performance.now();
  for (let i = 0; i < 1_000_000; i++) {
    store.consumeSync([
      {
        scope: 'ip',
        key: `ip:${(i >>> 24) & 255}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`,
        limit: 50,
        windowMs: 60_000,
      },
    ]);
  }
  const ms = performance.now() - start;
  const after = heap();
  console.log(
    `\n1,000,000 distinct IPs, maxKeys 100,000: ${store.size.toLocaleString('en')} keys tracked, ` +
      `heap +${mb(after - before)} (heapUsed ${mb(after)}, rss ${mb(process.memoryUsage().rss)}), ` +
      `${((ms * 1000) / 1_000_000).toFixed(2)} µs per decision`,
  );
  void store.close();
}
