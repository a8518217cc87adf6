// Verified-token cache: a repeated token skips key lookup and signature checking; expiry is honoured.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createJwtVerifier } from '../../../../src/gateway/auth/jwt/verify.js';
import { createStaticKeySource } from '../../../../src/gateway/auth/jwt/static-keys.js';
import { createTokenCache } from '../../../../src/gateway/auth/jwt/token-cache.js';
import type { KeySource } from '../../../../src/gateway/auth/jwt/key-entry.js';
import { AuthError } from '../../../../src/gateway/auth/jwt/errors.js';
import { makeClock, makeKey, mint, seconds, type SigningKey } from '../helpers.js';
import { resolveJwtConfig } from '../../../../src/config/gateway-jwt.js';

const ISSUER = 'https://idp.example.com';
const AUDIENCE = 'https://gateway.test/mcp';
let key: SigningKey;
before(async () => {
  key = await makeKey('k1');
});

function countingSource(): KeySource & { lookups: number } {
  const inner = createStaticKeySource([{ jwk: key.publicJwk }]);
  const source = Object.assign(
    (header: Parameters<KeySource>[0]) => {
      source.lookups += 1;
      return inner(header);
    },
    { lookups: 0 },
  );
  return source;
}

function setup(tokenCache: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const clock = makeClock();
  const keySource = countingSource();
  const verifier = createJwtVerifier(
    resolveJwtConfig({
      issuer: ISSUER,
      audience: AUDIENCE,
      staticKeys: [{ jwk: key.publicJwk }],
      tokenCache,
    }),
    { clock, keySource },
  );
  const token = (exp: number, sub = 'alice') => mint(key, { iss: ISSUER, aud: AUDIENCE, sub, exp });
  return { clock, keySource, verifier, token };
}

describe('verified-token cache', () => {
  test('Decision jwt/token-cache: a repeated token is served from the cache without key lookup', async () => {
    const { verifier, keySource, token, clock } = setup();
    const t = await token(seconds(clock) + 600);
    const first = await verifier.verify(t);
    const second = await verifier.verify(t);
    assert.equal(keySource.lookups, 1);
    assert.equal(second, first);
  });

  test('RFC 7519 §4.1.4: a cached token is never returned after its exp', async () => {
    const { verifier, keySource, token, clock } = setup({ maxAgeMs: 3_600_000 });
    const t = await token(seconds(clock) + 60);
    await verifier.verify(t);
    clock.advance(60_000 + 1_000); // past exp, inside the clock tolerance
    await verifier.verify(t);
    assert.equal(keySource.lookups, 2, 'the cache entry ended at exp; the token was re-verified');
    clock.advance(30_000); // past the tolerance too
    await assert.rejects(
      verifier.verify(t),
      (err: unknown) => err instanceof AuthError && err.code === 'TOKEN_EXPIRED',
    );
    assert.equal(keySource.lookups, 3, 'the expired token was re-verified, not served from cache');
  });

  test('Decision jwt/token-cache: entries live at most tokenCache.maxAgeMs', async () => {
    const { verifier, keySource, token, clock } = setup({ maxAgeMs: 10_000 });
    const t = await token(seconds(clock) + 3600);
    await verifier.verify(t);
    clock.advance(10_000);
    await verifier.verify(t);
    assert.equal(keySource.lookups, 2);
  });

  test('Decision jwt/token-cache: a failed token is never cached', async () => {
    const { verifier, keySource, clock } = setup();
    const t = await mint(key, { iss: ISSUER, aud: 'other', sub: 'a', exp: seconds(clock) + 60 });
    await assert.rejects(verifier.verify(t));
    await assert.rejects(verifier.verify(t));
    assert.equal(keySource.lookups, 2);
  });

  test('Decision jwt/token-cache: the cache is a bounded LRU', () => {
    const clock = makeClock();
    const cache = createTokenCache<number>({ maxEntries: 2, maxAgeMs: 60_000, clock });
    const far = clock() + 120_000;
    cache.set('a', 1, far);
    cache.set('b', 2, far);
    assert.equal(cache.get('a'), 1); // a is now most recent
    cache.set('c', 3, far);
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
  });

  test('Decision jwt/token-cache: maxEntries 0 disables caching', async () => {
    const { verifier, keySource, token, clock } = setup({ maxEntries: 0 });
    const t = await token(seconds(clock) + 600);
    await verifier.verify(t);
    await verifier.verify(t);
    assert.equal(keySource.lookups, 2);
  });
});
