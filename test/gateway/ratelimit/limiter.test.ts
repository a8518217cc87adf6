// The facade the gateway calls, on the memory store with a manual clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRateLimitConfig } from '../../../src/config/gateway-ratelimit.js';
import { createRateLimiter } from '../../../src/gateway/ratelimit/limiter.js';
import { CountingMetrics } from '../../helpers/counting-metrics.js';
import { ManualClock } from './manual-clock.js';
import { rendered } from './rendered.js';

describe('rate limiter', () => {
  it('anonymous callers: 50 per minute per IP, then 429 with headers and error data', async () => {
    const clock = new ManualClock();
    const metrics = new CountingMetrics();
    const limiter = createRateLimiter(
      parseRateLimitConfig({ subscriptionDefault: { limit: 1000 } }),
      {
        clock,
        metrics,
      },
    );
    const ctx = { userId: null, clientIp: '203.0.113.5', subscriptionId: 'sub1' };
    for (let i = 0; i < 50; i++) {
      const r = rendered(await limiter.check(ctx));
      assert.equal(r.status, 200);
      // t = seconds until the oldest counted request (the first, i * 100 ms ago) leaves the window.
      const t = Math.ceil((60_000 - i * 100) / 1000);
      assert.equal(
        r.headers['RateLimit'],
        `"ip";r=${49 - i};t=${t}, "subscription";r=${999 - i};t=${t}`,
      );
      clock.advance(100);
    }
    const refused = rendered(await limiter.check(ctx));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['Retry-After'], '55'); // first request 5 s ago
    assert.deepEqual(refused.error?.data, {
      scope: 'ip',
      limit: 50,
      windowSeconds: 60,
      retryAfterSeconds: 55,
    });
    // Another IP on the same subscription is unaffected.
    assert.equal(rendered(await limiter.check({ ...ctx, clientIp: '203.0.113.6' })).status, 200);
    assert.equal(metrics.get('decision:allowed:memory'), 51);
    assert.equal(metrics.get('decision:rejected:memory'), 1);
    await limiter.close();
  });

  it('authenticated callers: 500 per minute per user id, independent of IP', async () => {
    const clock = new ManualClock();
    const limiter = createRateLimiter(
      parseRateLimitConfig({ subscriptionDefault: { limit: 10_000 } }),
      { clock },
    );
    let admitted = 0;
    for (let i = 0; i < 600; i++) {
      const r = rendered(
        await limiter.check({
          userId: 'alice',
          clientIp: `198.51.100.${i % 250}`,
          subscriptionId: 's',
        }),
      );
      if (r.status === 200) admitted++;
    }
    assert.equal(admitted, 500);
    await limiter.close();
  });

  it('resolves the client IP through configured trusted proxies only', async () => {
    const limiter = createRateLimiter(parseRateLimitConfig({ trustedProxies: ['10.0.0.0/8'] }));
    assert.equal(
      limiter.clientIp('10.0.0.1', { 'x-forwarded-for': '198.51.100.4' }),
      '198.51.100.4',
    );
    assert.equal(
      limiter.clientIp('198.51.100.9', { 'x-forwarded-for': '1.1.1.1' }),
      '198.51.100.9',
    );
    await limiter.close();
  });

  it('ready(): true for memory; false (and a warning) when Redis is unreachable', async () => {
    const memory = createRateLimiter(parseRateLimitConfig());
    assert.equal(await memory.ready(), true);
    await memory.close();
    const warnings: string[] = [];
    const redis = createRateLimiter(
      parseRateLimitConfig({ store: 'redis', redis: { url: 'redis://127.0.0.1:1' } }),
      { logger: { warn: (_o, msg) => warnings.push(msg), info: () => undefined } },
    );
    assert.equal(await redis.ready(300), false);
    assert.deepEqual(warnings, ['rate-limit Redis not reachable at startup']);
    const r = rendered(
      await redis.check({ userId: 'u', clientIp: '192.0.2.1', subscriptionId: 's' }),
    );
    assert.equal(r.status, 200);
    assert.equal(r.decision.degraded, 'fallback');
    await redis.close();
  });

  it(
    'Redis-backed limiter decides through Redis when it is up',
    { skip: process.env.REDIS_URL ? false : 'REDIS_URL not set' },
    async () => {
      const prefix = `toolgate-test:rllim:${Date.now()}:`;
      const limiter = createRateLimiter(
        parseRateLimitConfig({
          store: 'redis',
          redis: { url: process.env.REDIS_URL, keyPrefix: prefix, commandTimeoutMs: 2000 },
          user: { limit: 3 },
        }),
      );
      assert.equal(await limiter.ready(), true);
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const r = rendered(
          await limiter.check({
            userId: 'carol',
            clientIp: '192.0.2.1',
            subscriptionId: 's',
          }),
        );
        assert.equal(r.decision.degraded, undefined);
        statuses.push(r.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429]);
      await limiter.close();
      const { Redis } = await import('ioredis');
      const admin = new Redis(process.env.REDIS_URL ?? '');
      const keys = await admin.keys(`{${prefix}}*`);
      assert.deepEqual(keys.sort(), [`{${prefix}}s:s`, `{${prefix}}u:carol`]);
      await admin.del(...keys);
      await admin.quit();
    },
  );

  it('refuses to start a redis store without a URL or client', () => {
    assert.throws(() => createRateLimiter(parseRateLimitConfig({ store: 'redis' })), /Redis URL/);
  });
});
