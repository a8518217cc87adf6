// createJwtVerifier against a REAL OpenID provider (oidc-provider on loopback): discovery + JWKS.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, createPublicKey, type JsonWebKey } from 'node:crypto';
import { SignJWT } from 'jose';
import {
  createJwtVerifier,
  type JwtVerifierDeps,
} from '../../../../src/gateway/auth/jwt/verify.js';
import {
  PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS,
  resolveJwtConfig,
  type JwtConfigInput,
} from '../../../../src/config/gateway-jwt.js';
import { AuthError, type AuthErrorCode } from '../../../../src/gateway/auth/jwt/errors.js';
import {
  b64,
  makeClock,
  makeKey,
  mint,
  recordingFetch,
  seconds,
  signRawRs256,
  startCountingServer,
  startOidcProvider,
  type LoopbackIdp,
  type SigningKey,
} from '../helpers.js';

const AUDIENCE = 'https://gateway.test/mcp';
let idp: LoopbackIdp;
let k1: SigningKey;
let e1: SigningKey;

before(async () => {
  k1 = await makeKey('k1', 'RS256');
  e1 = await makeKey('e1', 'ES256');
  idp = await startOidcProvider([k1, e1]);
});
after(async () => {
  await idp.close();
});

function setup(overrides: Partial<JwtConfigInput> = {}, deps: JwtVerifierDeps = {}) {
  const clock = makeClock();
  const fetch = recordingFetch();
  const verifier = createJwtVerifier(
    resolveJwtConfig({ issuer: idp.issuer, audience: AUDIENCE, ...overrides }),
    { fetch, clock, ...deps },
  );
  const claims = (extra: Record<string, unknown> = {}) => ({
    iss: idp.issuer,
    aud: AUDIENCE,
    sub: 'alice',
    iat: seconds(clock),
    exp: seconds(clock) + 300,
    ...extra,
  });
  return { clock, fetch, verifier, claims };
}

async function rejects(promise: Promise<unknown>, code: AuthErrorCode): Promise<AuthError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof AuthError, `expected AuthError, got ${String(err)}`);
    assert.equal(err.code, code, `expected ${code}, got ${err.code}: ${err.message}`);
    return err;
  }
  assert.fail(`expected rejection with ${code}`);
}

describe('JWT verification against oidc-provider discovery/JWKS', () => {
  test('RFC 7519 §7.2: a valid RS256 token from the discovered JWKS verifies', async () => {
    const { verifier, claims, fetch } = setup();
    const token = await mint(k1, claims({ scope: 'payments' }));
    const user = await verifier.verify(token);
    assert.equal(user.subject, 'alice');
    assert.equal(user.claims['scope'], 'payments');
    assert.match(user.tokenHash, /^[0-9a-f]{64}$/);
    assert.deepEqual(fetch.urls, [
      `${idp.issuer}/.well-known/openid-configuration`,
      `${idp.issuer}/jwks`,
    ]);
  });

  test('RFC 7518 §3.4: a valid ES256 token verifies', async () => {
    const { verifier, claims } = setup();
    const user = await verifier.verify(await mint(e1, claims({ sub: 'bob' })));
    assert.equal(user.subject, 'bob');
  });

  test('RFC 8725 §3.1: rejects alg "none"', async () => {
    const { verifier, claims, fetch } = setup();
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`;
    await rejects(verifier.verify(token), 'ALG_NOT_ALLOWED');
    const withSig = `${b64({ alg: 'none', kid: 'k1' })}.${b64(claims())}.c2ln`;
    await rejects(verifier.verify(withSig), 'ALG_NOT_ALLOWED');
    assert.equal(fetch.urls.length, 0);
  });

  test('RFC 8725 §2.1/§3.1: HS256 signed with the RSA public key as HMAC secret is rejected (algorithm confusion)', async () => {
    const { verifier, claims } = setup();
    const pem = createPublicKey({ key: k1.publicJwk as JsonWebKey, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    const input = `${b64({ alg: 'HS256', kid: 'k1' })}.${b64(claims())}`;
    const sig = createHmac('sha256', pem).update(input).digest('base64url');
    await rejects(verifier.verify(`${input}.${sig}`), 'ALG_NOT_ALLOWED');
  });

  test('RFC 8725 §3.1: HS256 explicitly allowed still never uses an RSA key as HMAC secret', async () => {
    const pem = createPublicKey({ key: k1.publicJwk as JsonWebKey, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    const { verifier, claims } = setup({
      algorithms: ['RS256', 'HS256'],
      staticKeys: [
        { kid: 'rsa', pem },
        {
          kid: 'hmac',
          alg: 'HS256',
          jwk: { kty: 'oct', k: Buffer.alloc(32, 7).toString('base64url') },
        },
      ],
    });
    const input = `${b64({ alg: 'HS256', kid: 'rsa' })}.${b64(claims())}`;
    const sig = createHmac('sha256', pem).update(input).digest('base64url');
    await rejects(verifier.verify(`${input}.${sig}`), 'KEY_NOT_FOUND');
    // The genuine symmetric key does work, proving HS256 was enabled.
    const good = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: 'hmac' })
      .sign(Buffer.alloc(32, 7));
    assert.equal((await verifier.verify(good)).subject, 'alice');
  });

  test('RFC 8725 §3.10: kid injection values select nothing and cause no lookup beyond the key set', async () => {
    const { verifier, claims, fetch, clock } = setup();
    await verifier.verify(await mint(k1, claims()));
    clock.advance(31_000); // past the refetch cooldown, so the first unknown kid may refetch once
    const kids = [
      '../../../../etc/passwd',
      "' OR '1'='1' --",
      'k1; DROP TABLE keys',
      'http://127.0.0.1:1/evil',
      'k1\u0000',
      '*',
    ];
    for (const kid of kids) {
      await rejects(verifier.verify(await mint(k1, claims(), { kid })), 'KEY_NOT_FOUND');
    }
    const allowed = new Set([
      `${idp.issuer}/.well-known/openid-configuration`,
      `${idp.issuer}/jwks`,
    ]);
    assert.ok(
      fetch.urls.every((u) => allowed.has(u)),
      fetch.urls.join(', '),
    );
    // One refetch for the first unknown kid, none for the rest (cooldown).
    assert.equal(fetch.urls.filter((u) => u.endsWith('/jwks')).length, 2);
  });

  test('RFC 8725 §3.10: jku/x5u/jwk/x5c headers are ignored and never fetched', async () => {
    const attacker = await startCountingServer();
    try {
      const { verifier, claims, fetch } = setup();
      const evil = await makeKey('k1', 'RS256');
      const headers = {
        jku: `${attacker.url}/jwks.json`,
        x5u: `${attacker.url}/cert.pem`,
        jwk: evil.publicJwk,
        x5c: ['MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA'],
      };
      await rejects(verifier.verify(await mint(evil, claims(), headers)), 'SIGNATURE_INVALID');
      await rejects(
        verifier.verify(await mint(evil, claims(), { ...headers, kid: 'evil' })),
        'KEY_NOT_FOUND',
      );
      // A genuine token carrying the same headers verifies with the IdP's key, not the header's.
      assert.equal((await verifier.verify(await mint(k1, claims(), headers))).subject, 'alice');
      assert.equal(attacker.hits(), 0);
      assert.ok(fetch.urls.every((u) => u.startsWith(idp.issuer)));
    } finally {
      await attacker.close();
    }
  });

  test('RFC 7515 §4.1.11: an unknown "crit" header parameter is rejected', async () => {
    const { verifier, claims } = setup();
    const token = signRawRs256(
      { alg: 'RS256', kid: 'k1', crit: ['x-custom'], 'x-custom': 1 },
      claims(),
      k1.privateJwk,
    );
    await rejects(verifier.verify(token), 'CRIT_UNSUPPORTED');
  });

  test('RFC 7519 §4.1.4: an expired token (beyond the 30 s tolerance) is rejected', async () => {
    const { verifier, claims, clock } = setup();
    const token = await mint(k1, claims({ exp: seconds(clock) - 30 }));
    await rejects(verifier.verify(token), 'TOKEN_EXPIRED');
  });

  test('RFC 7519 §4.1.4: a token expired less than clockToleranceSeconds ago is accepted', async () => {
    const { verifier, claims, clock } = setup();
    const token = await mint(k1, claims({ exp: seconds(clock) - 29 }));
    assert.equal((await verifier.verify(token)).subject, 'alice');
    const strict = setup({ clockToleranceSeconds: 0 });
    await rejects(
      strict.verifier.verify(await mint(k1, strict.claims({ exp: seconds(strict.clock) - 1 }))),
      'TOKEN_EXPIRED',
    );
  });

  test('RFC 7519 §4.1.5: a token whose nbf is in the future is rejected', async () => {
    const { verifier, claims, clock } = setup();
    await rejects(
      verifier.verify(await mint(k1, claims({ nbf: seconds(clock) + 120 }))),
      'TOKEN_NOT_YET_VALID',
    );
    // Within tolerance it is accepted.
    assert.ok(await verifier.verify(await mint(k1, claims({ nbf: seconds(clock) + 10 }))));
  });

  test('RFC 8725 §3.10 / RFC 7519 §4.1.4: a token without "exp" is rejected', async () => {
    const { verifier, claims } = setup({ requiredClaims: [] });
    const { exp: _exp, ...noExp } = claims();
    await rejects(verifier.verify(await mint(k1, noExp)), 'CLAIM_MISSING');
  });

  test('RFC 7519 §4.1.3: a wrong "aud" is rejected', async () => {
    const { verifier, claims } = setup();
    await rejects(
      verifier.verify(await mint(k1, claims({ aud: 'https://other.test/mcp' }))),
      'AUDIENCE_MISMATCH',
    );
  });

  test('RFC 7519 §4.1.3: an "aud" array containing the audience is accepted', async () => {
    const { verifier, claims } = setup();
    const user = await verifier.verify(
      await mint(k1, claims({ aud: ['https://x.test', AUDIENCE] })),
    );
    assert.equal(user.subject, 'alice');
  });

  test('RFC 7519 §4.1.3: an "aud" array without the audience is rejected', async () => {
    const { verifier, claims } = setup();
    await rejects(
      verifier.verify(await mint(k1, claims({ aud: ['https://x.test', `${AUDIENCE}/`] }))),
      'AUDIENCE_MISMATCH',
    );
  });

  test('RFC 7519 §4.1.1: a wrong "iss" is rejected', async () => {
    const { verifier, claims } = setup();
    await rejects(
      verifier.verify(await mint(k1, claims({ iss: 'https://evil.test' }))),
      'ISSUER_MISMATCH',
    );
  });

  test('RFC 8725 §3.8: "iss" with a trailing slash does not equal the configured issuer', async () => {
    const { verifier, claims } = setup();
    await rejects(
      verifier.verify(await mint(k1, claims({ iss: `${idp.issuer}/` }))),
      'ISSUER_MISMATCH',
    );
  });

  test('RFC 7515 §7.1: malformed compact serialisations are rejected', async () => {
    const { verifier, claims, fetch } = setup();
    const good = await mint(k1, claims());
    const [h, p, s] = good.split('.') as [string, string, string];
    const bad = [
      `${h}.${p}`,
      `${h}.${p}.${s}.${s}`,
      `${h}.${p}.${s}=`,
      `${h}!.${p}.${s}`,
      `${b64('not json')}.${p}.${s}`,
      `${b64('[1,2]')}.${p}.${s}`,
      `.${p}.${s}`,
      `${b64({ alg: 'RS256', kid: 'k1' })}.${p}.`,
      `${b64({ alg: 'RS256', kid: 42 })}.${p}.${s}`,
    ];
    for (const token of bad) await rejects(verifier.verify(token), 'TOKEN_MALFORMED');
    assert.equal(fetch.urls.length, 0);
  });

  test('RFC 7515 §5.2: a bad signature is rejected', async () => {
    const { verifier, claims } = setup();
    const [h, , s] = (await mint(k1, claims())).split('.') as [string, string, string];
    const forged = `${h}.${b64(claims({ sub: 'admin' }))}.${s}`;
    await rejects(verifier.verify(forged), 'SIGNATURE_INVALID');
    const otherKey = await makeKey('k1', 'RS256');
    await rejects(verifier.verify(await mint(otherKey, claims())), 'SIGNATURE_INVALID');
  });

  test('RFC 8725 §3.1 (DoS): an oversized token is rejected before any decoding or key lookup', async () => {
    const { verifier, fetch } = setup({ maxTokenBytes: 1024 });
    // Not even base64url: decoding first would report TOKEN_MALFORMED instead.
    await rejects(verifier.verify('@'.repeat(1025)), 'TOKEN_TOO_LARGE');
    const big = await mint(k1, { sub: 'alice', pad: 'x'.repeat(2000) });
    await rejects(verifier.verify(big), 'TOKEN_TOO_LARGE');
    assert.equal(fetch.urls.length, 0);
  });

  test('RFC 7519 §4.1.2: a missing "sub" is rejected', async () => {
    const { verifier, claims } = setup();
    const { sub: _sub, ...noSub } = claims();
    await rejects(verifier.verify(await mint(k1, noSub)), 'CLAIM_MISSING');
  });

  test('RFC 7519 §4.1.2: an empty "sub" is rejected', async () => {
    const { verifier, claims } = setup();
    await rejects(verifier.verify(await mint(k1, claims({ sub: '' }))), 'CLAIM_MISSING');
  });

  test('subjects that would not reach a backend unchanged (outer whitespace, control or non-ASCII characters, "anonymous", over 512) are refused, without being echoed; visible ASCII passes as signed', async () => {
    const { verifier, claims } = setup();
    for (const sub of [
      'alice ',
      ' alice',
      '\talice',
      'alice\t',
      'alice\n',
      'al\u0000ice',
      'al\u007fice',
      'alicé',
      'anonymous',
      'Anonymous',
    ]) {
      const err = await rejects(
        verifier.verify(await mint(k1, claims({ sub }))),
        'SUBJECT_INVALID',
      );
      assert.ok(!err.message.includes(sub), 'the subject is not echoed');
    }
    // Visible ASCII with inner spaces, as IdPs issue them, is accepted unchanged.
    for (const sub of ['alice', 'auth0|5f1c', 'Jane Doe', 'a'.repeat(512)])
      assert.equal((await verifier.verify(await mint(k1, claims({ sub })))).subject, sub);
    await rejects(
      verifier.verify(await mint(k1, claims({ sub: 'a'.repeat(513) }))),
      'CLAIM_INVALID',
    );
  });

  test('RFC 8725 §3.10: an "iat" beyond the clock tolerance in the future is refused', async () => {
    const { verifier, claims, clock } = setup();
    const tenYears = 10 * 365 * 86_400;
    await rejects(
      verifier.verify(
        await mint(
          k1,
          claims({ iat: seconds(clock) + tenYears, exp: seconds(clock) + tenYears + 300 }),
        ),
      ),
      'TOKEN_NOT_YET_VALID',
    );
    await rejects(
      verifier.verify(await mint(k1, claims({ iat: seconds(clock) + 31 }))),
      'TOKEN_NOT_YET_VALID',
    );
    assert.ok(await verifier.verify(await mint(k1, claims({ iat: seconds(clock) + 30 }))));
  });

  test('maxTokenLifetimeSeconds bounds exp - iat (exp - now without iat); unset, no bound', async () => {
    const in2100 = Date.UTC(2100, 0, 1) / 1000;
    const open = setup();
    assert.ok(await open.verifier.verify(await mint(k1, open.claims({ exp: in2100 }))));
    const { verifier, claims, clock } = setup({ maxTokenLifetimeSeconds: 3600 });
    await rejects(
      verifier.verify(await mint(k1, claims({ exp: in2100 }))),
      'TOKEN_LIFETIME_EXCEEDED',
    );
    const { iat: _iat, ...noIat } = claims({ exp: seconds(clock) + 7200 });
    await rejects(verifier.verify(await mint(k1, noIat)), 'TOKEN_LIFETIME_EXCEEDED');
    assert.ok(await verifier.verify(await mint(k1, claims({ exp: seconds(clock) + 3600 }))));
  });

  test('production bounds token lifetime to one day unless configured (0 = no bound)', async () => {
    assert.equal(
      resolveJwtConfig({ issuer: 'https://i.test', audience: 'a' }).maxTokenLifetimeSeconds,
      undefined,
    );
    assert.equal(
      resolveJwtConfig(
        { issuer: 'https://i.test', audience: 'a' },
        PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS,
      ).maxTokenLifetimeSeconds,
      86_400,
    );
    assert.equal(
      resolveJwtConfig(
        { issuer: 'https://i.test', audience: 'a', maxTokenLifetimeSeconds: 0 },
        PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS,
      ).maxTokenLifetimeSeconds,
      undefined,
    );
  });

  test('Spec Authentication §2: requiredClaims beyond exp are enforced', async () => {
    const { verifier, claims } = setup({ requiredClaims: ['exp', 'tenant'] });
    await rejects(verifier.verify(await mint(k1, claims())), 'CLAIM_MISSING');
    assert.ok(await verifier.verify(await mint(k1, claims({ tenant: 't1' }))));
  });

  test('AuthError messages never contain the token', async () => {
    const { verifier, claims } = setup();
    const token = await mint(k1, claims({ aud: 'nope' }));
    const err = await rejects(verifier.verify(token), 'AUDIENCE_MISMATCH');
    for (const part of token.split('.')) assert.ok(!err.message.includes(part));
  });
});
