// Configuration schema, defaults and guards.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveJwtConfig, ASYMMETRIC_ALGORITHMS } from '../../src/config/gateway-jwt.js';
import { ConfigError } from '../../src/config/errors.js';

const base = { issuer: 'https://idp.example.com', audience: 'https://gw.example.com/mcp' };
const invalid = (err: unknown) => err instanceof ConfigError && err.code === 'CONFIG_INVALID';

describe('JWT configuration', () => {
  test('Spec Authentication §8: defaults — conditional mode, asymmetric algorithms only, 30 s tolerance, 8 KiB cap, exp required', () => {
    const c = resolveJwtConfig(base);
    assert.equal(c.mode, 'conditional');
    assert.deepEqual(c.algorithms, [...ASYMMETRIC_ALGORITHMS]);
    assert.ok(!c.algorithms.some((a) => a.startsWith('HS')));
    assert.equal(c.clockToleranceSeconds, 30);
    assert.equal(c.maxTokenBytes, 8192);
    assert.deepEqual(c.requiredClaims, ['exp']);
    assert.equal(c.discovery?.url, 'https://idp.example.com/.well-known/openid-configuration');
    assert.ok(Object.isFrozen(c));
  });

  test('Spec Authentication §8: modes required and anonymous are accepted, others refused', () => {
    assert.equal(resolveJwtConfig({ ...base, mode: 'required' }).mode, 'required');
    assert.equal(resolveJwtConfig({ ...base, mode: 'anonymous' }).mode, 'anonymous');
    assert.throws(() => resolveJwtConfig({ ...base, mode: 'sometimes' }), invalid);
  });

  test('RFC 8725 §3.1: "none" is rejected at configuration, in any case', () => {
    for (const none of ['none', 'None', 'NONE'])
      assert.throws(
        () => resolveJwtConfig({ ...base, algorithms: ['RS256', none] }),
        (err: unknown) => invalid(err) && /none/.test((err as Error).message),
      );
  });

  test('RFC 8725 §3.1: HS256 requires an explicit static symmetric key', () => {
    assert.throws(() => resolveJwtConfig({ ...base, algorithms: ['HS256'] }), invalid);
    const ok = resolveJwtConfig({
      ...base,
      algorithms: ['HS256'],
      staticKeys: [{ jwk: { kty: 'oct', k: Buffer.alloc(32).toString('base64url') } }],
    });
    assert.deepEqual(ok.algorithms, ['HS256']);
    assert.equal(ok.discovery, undefined, 'static keys alone disable discovery');
  });

  test('RFC 7519 §4.1.4: clockToleranceSeconds is capped at 300', () => {
    assert.throws(() => resolveJwtConfig({ ...base, clockToleranceSeconds: 301 }), invalid);
    assert.equal(
      resolveJwtConfig({ ...base, clockToleranceSeconds: 300 }).clockToleranceSeconds,
      300,
    );
  });

  test('Decision jwt/exp-required: "exp" stays required even if requiredClaims omits it', () => {
    assert.ok(
      resolveJwtConfig({ ...base, requiredClaims: ['tenant'] }).requiredClaims.includes('exp'),
    );
  });

  test('Spec Authentication §4: forwardClaims header names must be valid HTTP field names', () => {
    assert.throws(
      () => resolveJwtConfig({ ...base, forwardClaims: { email: 'X User Email' } }),
      invalid,
    );
    const c = resolveJwtConfig({ ...base, forwardClaims: { email: 'X-User-Email' } });
    assert.equal(c.forwardClaims['email'], 'X-User-Email');
  });

  test('Decision jwt/config-errors: errors name the offending key, and unknown keys are refused', () => {
    assert.throws(
      () => resolveJwtConfig({ ...base, audiense: 'typo' }),
      (err: unknown) =>
        invalid(err) && /gateway\.auth\.jwt\.audiense: unknown key/.test((err as Error).message),
    );
    assert.throws(() => resolveJwtConfig({ audience: base.audience }), invalid);
    assert.throws(
      () => resolveJwtConfig({ ...base, staticKeys: [{ kid: 'a' }] }),
      (err: unknown) => invalid(err) && /staticKeys\.0/.test((err as Error).message),
    );
  });

  test('Decision jwt/config-errors: resolving an already resolved configuration is idempotent', () => {
    const once = resolveJwtConfig(base);
    assert.deepEqual(resolveJwtConfig(once), once);
  });
});
