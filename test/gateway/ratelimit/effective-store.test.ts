// Which store the limiter uses when gateway.rateLimit.store is left out (moved from test/config, which
// imports no gateway code).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRateLimitConfig } from '../../../src/config/gateway-ratelimit.js';
import { effectiveStore } from '../../../src/gateway/ratelimit/limiter.js';

test('no explicit store: redis when a Redis URL is configured, else memory; an explicit store wins', () => {
  const c = parseRateLimitConfig();
  assert.equal(effectiveStore(c, {}), 'memory');
  assert.equal(
    effectiveStore({ ...c, redis: { ...c.redis, url: 'redis://127.0.0.1:6379' } }, {}),
    'redis',
  );
  assert.equal(
    effectiveStore({ ...c, store: 'memory', redis: { ...c.redis, url: 'redis://x' } }, {}),
    'memory',
  );
});
