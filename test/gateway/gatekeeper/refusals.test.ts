import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { retryAfterSeconds } from '../../../src/gateway/gatekeeper/refusals.js';
import { GATEWAY_ERRORS } from '../../../src/gateway/errors.js';
import type { LimitCheck, LimitDecision } from '../../../src/gateway/ratelimit/types.js';
import { rendered as rateLimitResponse } from '../ratelimit/rendered.js';

const RATE_LIMITED_CODE = GATEWAY_ERRORS.RATE_LIMITED.rpc;

const user: LimitCheck = { scope: 'user', key: 'u:a', limit: 500, windowMs: 60_000 };
const sub: LimitCheck = { scope: 'subscription', key: 's:1', limit: 100, windowMs: 60_000 };

describe('rate-limit decisions as the gateway answers them: headers and errors', () => {
  it('admitted: RateLimit-Policy and RateLimit list every check, no Retry-After', () => {
    const d: LimitDecision = {
      allowed: true,
      checks: [
        { check: user, remaining: 499, resetMs: 60_000 },
        { check: sub, remaining: 12, resetMs: 40_200 },
      ],
    };
    const r = rateLimitResponse(d);
    assert.equal(r.status, 200);
    assert.equal(r.error, undefined);
    assert.deepEqual(r.headers, {
      'RateLimit-Policy': '"user";q=500;w=60, "subscription";q=100;w=60',
      RateLimit: '"user";r=499;t=60, "subscription";r=12;t=41',
    });
  });

  it('refused: 429, Retry-After in whole seconds rounded up, JSON-RPC error data', () => {
    const d: LimitDecision = {
      allowed: false,
      checks: [
        { check: user, remaining: 3, resetMs: 1_000 },
        { check: sub, remaining: 0, resetMs: 2_001 },
      ],
      blocking: { check: sub, retryAfterMs: 2_001 },
    };
    const r = rateLimitResponse(d);
    assert.equal(r.status, 429);
    assert.equal(r.headers['Retry-After'], '3');
    assert.equal(r.headers['RateLimit'], '"user";r=3;t=1, "subscription";r=0;t=3');
    assert.deepEqual(r.error, {
      code: RATE_LIMITED_CODE,
      message: 'Rate limit exceeded (subscription)',
      data: { scope: 'subscription', limit: 100, windowSeconds: 60, retryAfterSeconds: 3 },
    });
    assert.equal(RATE_LIMITED_CODE, -31029);
  });

  it('Retry-After is at least one second', () => {
    assert.equal(retryAfterSeconds(1), 1);
    assert.equal(retryAfterSeconds(0), 1);
    assert.equal(retryAfterSeconds(1000), 1);
    assert.equal(retryAfterSeconds(1001), 2);
  });

  it('fail-closed: 503 without quota fields; fail-open: no quota fields either', () => {
    const closed = rateLimitResponse({
      allowed: false,
      checks: [{ check: user, remaining: 500, resetMs: 0 }],
      degraded: 'fail-closed',
    });
    assert.equal(closed.status, 503);
    assert.deepEqual(closed.headers, { 'Retry-After': '1' });
    assert.equal(closed.error?.code, -31053);
    const open = rateLimitResponse({
      allowed: true,
      checks: [{ check: user, remaining: 500, resetMs: 0 }],
      degraded: 'fail-open',
    });
    assert.equal(open.status, 200);
    assert.deepEqual(open.headers, {});
  });

  it('a fallback decision renders like any other', () => {
    const r = rateLimitResponse({
      allowed: false,
      checks: [{ check: user, remaining: 0, resetMs: 500 }],
      blocking: { check: user, retryAfterMs: 500 },
      degraded: 'fallback',
    });
    assert.equal(r.status, 429);
    assert.equal(r.headers['Retry-After'], '1');
  });
});
