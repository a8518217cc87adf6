// Key retrieval through OIDC discovery: refetch/cooldown, rotation, outages, transport rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createJwtVerifier } from '../../../../src/gateway/auth/jwt/verify.js';
import { ConfigError } from '../../../../src/config/errors.js';
import { resolveJwtConfig } from '../../../../src/config/gateway-jwt.js';
import { createRemoteKeySet } from '../../../../src/gateway/auth/jwt/discovery.js';
import { isLoopbackHost } from '../../../../src/gateway/auth/jwt/secure-url.js';
import { AuthError, type AuthErrorCode } from '../../../../src/gateway/auth/jwt/errors.js';
import {
  makeClock,
  makeKey,
  mint,
  recordingFetch,
  seconds,
  startOidcProvider,
  type Clock,
  type LoopbackIdp,
  type SigningKey,
} from '../helpers.js';

const AUDIENCE = 'https://gateway.test/mcp';
const COOLDOWN = 30_000;
const MAX_AGE = 600_000;
const STALE = 3_600_000;
let k1: SigningKey;
let k2: SigningKey;
let stranger: SigningKey;

before(async () => {
  [k1, k2, stranger] = await Promise.all([makeKey('k1'), makeKey('k2'), makeKey('k9')]);
});

async function rejects(promise: Promise<unknown>, code: AuthErrorCode): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof AuthError, String(err));
    assert.equal(err.code, code, err.message);
    return true;
  });
}

describe('OIDC discovery key set (oidc-provider on loopback)', () => {
  let idp: LoopbackIdp;
  let clock: Clock;
  const started: LoopbackIdp[] = [];
  after(async () => {
    await Promise.all(started.map((s) => s.close()));
  });

  async function fresh(keys: SigningKey[]) {
    idp = await startOidcProvider(keys);
    started.push(idp);
    clock = makeClock();
    const verifier = createJwtVerifier(
      resolveJwtConfig({
        issuer: idp.issuer,
        audience: AUDIENCE,
        discovery: { cooldownMs: COOLDOWN, cacheMaxAgeMs: MAX_AGE, staleIfErrorMs: STALE },
        tokenCache: { maxEntries: 0 },
      }),
      { clock },
    );
    const token = (key: SigningKey, sub = 'alice') =>
      mint(key, { iss: idp.issuer, aud: AUDIENCE, sub, exp: seconds(clock) + 300 });
    return { verifier, token };
  }

  test('RFC 7517 §4.5 / OIDC Core §10.1.1: an unknown kid refetches exactly once, not again inside the cooldown, and again after it', async () => {
    const { verifier, token } = await fresh([k1]);
    await verifier.verify(await token(k1));
    assert.equal(idp.count('/jwks'), 1);
    clock.advance(COOLDOWN + 1);
    await rejects(verifier.verify(await token(stranger)), 'KEY_NOT_FOUND');
    assert.equal(idp.count('/jwks'), 2);
    await rejects(verifier.verify(await token(stranger, 'b')), 'KEY_NOT_FOUND');
    clock.advance(COOLDOWN - 1000);
    await rejects(verifier.verify(await token(stranger, 'c')), 'KEY_NOT_FOUND');
    assert.equal(idp.count('/jwks'), 2);
    clock.advance(1000);
    await rejects(verifier.verify(await token(stranger, 'd')), 'KEY_NOT_FOUND');
    assert.equal(idp.count('/jwks'), 3);
  });

  test('OIDC Core §10.1.1: key rotation at the IdP — the new kid is picked up, the old one is gone', async () => {
    const { verifier, token } = await fresh([k1]);
    await verifier.verify(await token(k1));
    idp.setKeys([k2]);
    clock.advance(COOLDOWN + 1);
    assert.equal((await verifier.verify(await token(k2))).subject, 'alice');
    assert.equal(idp.count('/jwks'), 2);
    await rejects(verifier.verify(await token(k1, 'bob')), 'KEY_NOT_FOUND');
  });

  test('Decision jwt/stale-keys: while the IdP is down, cached keys keep working after cacheMaxAge (within staleIfErrorMs)', async () => {
    const { verifier, token } = await fresh([k1]);
    await verifier.verify(await token(k1));
    idp.down = true;
    clock.advance(MAX_AGE + 1);
    const before = idp.total();
    assert.equal((await verifier.verify(await token(k1, 'bob'))).subject, 'bob');
    assert.equal(idp.total(), before + 1, 'one refresh attempt was made');
    await verifier.verify(await token(k1, 'carol'));
    assert.equal(idp.total(), before + 1, 'no further attempt inside the cooldown');
  });

  test('Decision jwt/stale-keys: after cacheMaxAge + staleIfErrorMs without a successful refresh, tokens are rejected (fail closed) until the IdP is back', async () => {
    const { verifier, token } = await fresh([k1]);
    await verifier.verify(await token(k1));
    idp.down = true;
    clock.advance(MAX_AGE + STALE + 1);
    await rejects(verifier.verify(await token(k1, 'bob')), 'JWKS_UNAVAILABLE');
    idp.down = false;
    clock.advance(COOLDOWN);
    assert.equal((await verifier.verify(await token(k1, 'carol'))).subject, 'carol');
  });

  test('Decision jwt/stale-keys: with the IdP down at startup, requests fail fast and retry only after the cooldown', async () => {
    const { verifier, token } = await fresh([k1]);
    idp.down = true;
    await rejects(verifier.verify(await token(k1)), 'JWKS_UNAVAILABLE');
    const attempts = idp.total();
    await rejects(verifier.verify(await token(k1, 'b')), 'JWKS_UNAVAILABLE');
    assert.equal(idp.total(), attempts);
    idp.down = false;
    clock.advance(COOLDOWN);
    assert.ok(await verifier.verify(await token(k1, 'c')));
  });

  test('Decision jwt/coalescing: concurrent first requests share one discovery + JWKS fetch', async () => {
    const { verifier, token } = await fresh([k1]);
    const tokens = await Promise.all(Array.from({ length: 10 }, (_, i) => token(k1, `u${i}`)));
    await Promise.all(tokens.map((t) => verifier.verify(t)));
    assert.equal(idp.count('/.well-known/openid-configuration'), 1);
    assert.equal(idp.count('/jwks'), 1);
  });
});

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json' },
    ...init,
  });
}

const remoteDefaults = {
  timeoutMs: 2000,
  cacheMaxAgeMs: MAX_AGE,
  cooldownMs: COOLDOWN,
  staleIfErrorMs: STALE,
  maxResponseBytes: 4096,
};

describe('discovery transport rules', () => {
  test('OIDC Discovery §7.1: a plain-http discovery URL for a non-loopback host is rejected at configuration', () => {
    for (const issuer of ['http://idp.example.com', 'http://10.0.0.5', 'http://128.0.0.1']) {
      assert.throws(
        () => resolveJwtConfig({ issuer, audience: AUDIENCE }),
        (err: unknown) => err instanceof ConfigError && /discovery\.url: .*https/.test(err.message),
      );
    }
    assert.throws(() =>
      resolveJwtConfig({
        issuer: 'https://idp.example.com',
        audience: AUDIENCE,
        discovery: { url: 'http://idp.example.com/.well-known/openid-configuration' },
      }),
    );
    const ok = resolveJwtConfig({ issuer: 'https://idp.example.com/', audience: AUDIENCE });
    assert.equal(ok.discovery?.url, 'https://idp.example.com/.well-known/openid-configuration');
    assert.ok(resolveJwtConfig({ issuer: 'http://localhost:9000', audience: AUDIENCE }).discovery);
  });

  test('OIDC Discovery §7.1: loopback hosts are exactly 127.0.0.0/8, ::1 and localhost', () => {
    for (const h of ['127.0.0.1', '127.255.0.9', '[::1]', 'localhost', 'LOCALHOST'])
      assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['128.0.0.1', '10.0.0.1', 'localhost.evil.com', '127.0.0.1.nip.io', '[::2]'])
      assert.equal(isLoopbackHost(h), false, h);
  });

  test('OIDC Discovery §7.1: a non-loopback http jwks_uri is never requested', async () => {
    const fetch = recordingFetch(async () =>
      json({ issuer: 'https://idp.test', jwks_uri: 'http://idp.test/jwks' }),
    );
    const set = createRemoteKeySet({
      issuer: 'https://idp.test',
      discoveryUrl: 'https://idp.test/.well-known/openid-configuration',
      fetch,
      ...remoteDefaults,
    });
    await rejects(set({ alg: 'RS256', kid: 'k1' }), 'JWKS_UNAVAILABLE');
    assert.deepEqual(fetch.urls, ['https://idp.test/.well-known/openid-configuration']);
  });

  test('OIDC Discovery §4.3: a discovery document whose issuer differs from the configured one is rejected', async () => {
    const fetch = recordingFetch(async (url) =>
      String(url).endsWith('/jwks')
        ? json({ keys: [k1.publicJwk] })
        : json({ issuer: 'https://idp.test/', jwks_uri: 'https://idp.test/jwks' }),
    );
    const set = createRemoteKeySet({
      issuer: 'https://idp.test',
      discoveryUrl: 'https://idp.test/.well-known/openid-configuration',
      fetch,
      ...remoteDefaults,
    });
    await rejects(set({ alg: 'RS256', kid: 'k1' }), 'JWKS_UNAVAILABLE');
    assert.equal(fetch.urls.length, 1);
  });

  test('Decision jwt/response-cap: discovery and JWKS responses above maxResponseBytes are rejected', async () => {
    const huge = { keys: [k1.publicJwk], padding: 'x'.repeat(10_000) };
    for (const withLength of [true, false]) {
      const fetch = recordingFetch(async () => {
        const body = JSON.stringify(huge);
        if (withLength) return json(huge);
        const stream = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode(body));
            c.close();
          },
        });
        return new Response(stream, { status: 200 });
      });
      const set = createRemoteKeySet({
        issuer: 'https://idp.test',
        jwksUrl: 'https://idp.test/jwks',
        fetch,
        ...remoteDefaults,
      });
      await rejects(set({ alg: 'RS256', kid: 'k1' }), 'JWKS_UNAVAILABLE');
    }
  });

  test('Decision jwt/timeouts: a JWKS endpoint that never answers fails after timeoutMs', async () => {
    const fetch = recordingFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const set = createRemoteKeySet({
      issuer: 'https://idp.test',
      jwksUrl: 'https://idp.test/jwks',
      fetch,
      ...remoteDefaults,
      timeoutMs: 100,
    });
    // AbortSignal.timeout() timers are unref'd; keep the event loop alive as a server would.
    const keepAlive = setInterval(() => undefined, 1000);
    try {
      await rejects(set({ alg: 'RS256', kid: 'k1' }), 'JWKS_UNAVAILABLE');
    } finally {
      clearInterval(keepAlive);
    }
  });

  test('RFC 8725 §3.1: symmetric ("oct") and private keys published in a remote JWKS are ignored', async () => {
    const fetch = recordingFetch(async () =>
      json({ keys: [{ kty: 'oct', kid: 'h', k: 'c2VjcmV0' }, k1.privateJwk] }),
    );
    const set = createRemoteKeySet({
      issuer: 'https://idp.test',
      jwksUrl: 'https://idp.test/jwks',
      fetch,
      clock: makeClock(),
      ...remoteDefaults,
    });
    await rejects(set({ alg: 'HS256', kid: 'h' }), 'KEY_NOT_FOUND');
    await rejects(set({ alg: 'RS256', kid: 'k1' }), 'KEY_NOT_FOUND');
  });
});
