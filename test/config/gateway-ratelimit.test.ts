import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRateLimitConfig } from '../../src/config/gateway-ratelimit.js';

describe('rate-limit configuration', () => {
  it('defaults to the documented policy', () => {
    const c = parseRateLimitConfig();
    assert.equal(c.store, undefined, 'no explicit store: chosen from whether Redis is configured');
    assert.deepEqual(c.user, { limit: 500, windowSeconds: 60 });
    assert.deepEqual(c.anonymous, { limit: 50, windowSeconds: 60 });
    assert.deepEqual(c.subscriptionDefault, { limit: 100, windowSeconds: 60 });
    assert.equal(c.memory.maxKeys, 100_000);
    assert.equal(c.redis.keyPrefix, 'toolgate:rl:');
    assert.equal(c.redis.commandTimeoutMs, 250);
    assert.equal(c.onStoreFailure, 'fallback');
    assert.deepEqual(c.breaker, { failureThreshold: 3, cooldownMs: 1000 });
    assert.deepEqual(c.trustedProxies, []);
  });

  it('keeps given values, fills the rest, and defaults per-tool windows', () => {
    const input = { user: { limit: 10 }, perTool: { getX: { limit: 5 } } };
    const c = parseRateLimitConfig(input);
    assert.deepEqual(c.user, { limit: 10, windowSeconds: 60 });
    assert.deepEqual(c.perTool['getX'], { limit: 5, windowSeconds: 60 });
    assert.deepEqual(
      input,
      { user: { limit: 10 }, perTool: { getX: { limit: 5 } } },
      'input untouched',
    );
  });

  it('names the key and the problem', () => {
    assert.throws(
      () => parseRateLimitConfig({ user: { limit: 0 } }),
      /gateway\.rateLimit\.user\.limit/,
    );
    assert.throws(
      () => parseRateLimitConfig({ onStoreFailure: 'maybe' }),
      /gateway\.rateLimit\.onStoreFailure/,
    );
    assert.throws(() => parseRateLimitConfig({ extra: true }), /gateway\.rateLimit\.extra/);
    assert.throws(() => parseRateLimitConfig({ trustedProxies: ['nope'] }), /trustedProxies/);
  });
});
