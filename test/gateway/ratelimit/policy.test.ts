import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRateLimitConfig } from '../../../src/config/gateway-ratelimit.js';
import { checksFor } from '../../../src/gateway/ratelimit/policy.js';

const config = parseRateLimitConfig({ perTool: { getMyAccountBalance: { limit: 20 } } });

describe('policy', () => {
  it('authenticated: user 500/60 s by user id, plus the subscription default 100/60 s', () => {
    assert.deepEqual(
      checksFor({ userId: 'alice', clientIp: '192.0.2.1', subscriptionId: 'sub1' }, config),
      [
        { scope: 'user', key: 'u:alice', limit: 500, windowMs: 60_000 },
        { scope: 'subscription', key: 's:sub1', limit: 100, windowMs: 60_000 },
      ],
    );
  });

  it('anonymous: 50/60 s by client IP', () => {
    const checks = checksFor(
      { userId: null, clientIp: '192.0.2.1', subscriptionId: 'sub1' },
      config,
    );
    assert.deepEqual(checks[0], { scope: 'ip', key: 'ip:192.0.2.1', limit: 50, windowMs: 60_000 });
  });

  it('anonymous IPv6 clients are counted per /64', () => {
    const a = checksFor(
      { userId: null, clientIp: '2001:db8:1:2:aaaa::1', subscriptionId: 's' },
      config,
    );
    const b = checksFor(
      { userId: null, clientIp: '2001:db8:1:2:ffff::9', subscriptionId: 's' },
      config,
    );
    const c = checksFor({ userId: null, clientIp: '2001:db8:1:3::1', subscriptionId: 's' }, config);
    assert.equal(a[0]?.key, 'ip:2001:db8:1:2:0:0:0:0/64');
    assert.equal(a[0]?.key, b[0]?.key);
    assert.notEqual(a[0]?.key, c[0]?.key);
  });

  it('a subscription quota overrides the default; per-tool limits apply to configured tools only', () => {
    const checks = checksFor(
      {
        userId: 'alice',
        clientIp: '192.0.2.1',
        subscriptionId: 'sub1',
        subscriptionLimit: { limit: 1000, windowSeconds: 60 },
        tool: 'getMyAccountBalance',
      },
      config,
    );
    assert.deepEqual(checks.slice(1), [
      { scope: 'subscription', key: 's:sub1', limit: 1000, windowMs: 60_000 },
      { scope: 'tool', key: 't:sub1:getMyAccountBalance', limit: 20, windowMs: 60_000 },
    ]);
    const other = checksFor(
      { userId: 'a', clientIp: 'x', subscriptionId: 's', tool: 'listThings' },
      config,
    );
    assert.equal(other.length, 2);
  });

  it("the subscription's own tool limits win over the configured ones", () => {
    const checks = checksFor(
      {
        userId: 'a',
        clientIp: 'x',
        subscriptionId: 's',
        tool: 'getMyAccountBalance',
        toolLimits: { getMyAccountBalance: { limit: 3, windowSeconds: 10 } },
      },
      config,
    );
    assert.deepEqual(checks[2], {
      scope: 'tool',
      key: 't:s:getMyAccountBalance',
      limit: 3,
      windowMs: 10_000,
    });
  });

  it('tool names that are Object.prototype members are not limits', () => {
    const checks = checksFor(
      { userId: 'a', clientIp: 'x', subscriptionId: 's', tool: 'constructor' },
      config,
    );
    assert.equal(checks.length, 2);
  });

  it('ids containing separators cannot collide', () => {
    const a = checksFor(
      { userId: 'a', clientIp: 'x', subscriptionId: 'x:y', tool: 'getMyAccountBalance' },
      config,
    );
    const b = checksFor(
      { userId: 'a', clientIp: 'x', subscriptionId: 'x', tool: 'y:getMyAccountBalance' },
      {
        ...config,
        perTool: { 'y:getMyAccountBalance': { limit: 20, windowSeconds: 60 } },
      },
    );
    assert.notEqual(a[2]?.key, b[2]?.key);
  });
});
