import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { createAssertionSigner } from '../../../../src/gateway/auth/assertion/sign.js';
import { createAssertionVerifier } from '../../../../src/gateway/auth/assertion/verify.js';
import { AuthError } from '../../../../src/gateway/auth/jwt/errors.js';
import { makeClock } from '../util.js';

const GATEWAY = 'https://gw.example.com';
const BACKEND = 'https://payments.example.com';
const code = (c: string) => (err: unknown) => {
  assert.ok(err instanceof AuthError, String(err));
  assert.equal(err.code, c, err.message);
  return true;
};

describe('gateway identity assertions', () => {
  test('RFC 7523 §3: a signed assertion round-trips with subject and forwarded claims', async () => {
    const signer = await createAssertionSigner();
    const token = await signer.signAssertion({
      audience: BACKEND,
      subject: 'alice',
      claims: { email: 'alice@example.com', sub: 'mallory', iss: 'evil' },
      issuer: GATEWAY,
    });
    const verifier = createAssertionVerifier({
      issuer: GATEWAY,
      audience: BACKEND,
      jwks: signer.publicJwks(),
    });
    const result = await verifier.verify(token);
    assert.equal(result.subject, 'alice', 'claims cannot override registered claims');
    assert.equal(result.claims['email'], 'alice@example.com');
    assert.equal(result.claims['iss'], GATEWAY);
    assert.equal(result.expiresAt - (result.claims['iat'] as number), 60);
  });

  test('RFC 7638 §3: kid is the JWK thumbprint; the JWKS holds only the public key', async () => {
    const signer = await createAssertionSigner();
    const [jwk] = signer.publicJwks().keys;
    assert.ok(jwk);
    assert.equal(jwk.d, undefined);
    assert.equal(
      jwk.kid,
      await calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }),
    );
    assert.equal(signer.kid, jwk.kid);
    const token = await signer.signAssertion({ audience: BACKEND, subject: 'a', issuer: GATEWAY });
    const header = decodeProtectedHeader(token);
    assert.equal(header.kid, jwk.kid);
    assert.equal(header.alg, 'ES256');
    assert.equal(header.typ, 'identity-assertion+jwt');
  });

  test('RFC 7519 §4.1.3: an assertion for another backend is rejected', async () => {
    const signer = await createAssertionSigner({ alg: 'EdDSA' });
    const token = await signer.signAssertion({
      audience: 'https://other.example.com',
      subject: 'a',
      issuer: GATEWAY,
    });
    const verifier = createAssertionVerifier({
      issuer: GATEWAY,
      audience: BACKEND,
      jwks: signer.publicJwks(),
    });
    await assert.rejects(verifier.verify(token), code('AUDIENCE_MISMATCH'));
  });

  test('RFC 7519 §4.1.4: an expired assertion is rejected', async () => {
    const clock = makeClock();
    const signer = await createAssertionSigner({ clock });
    const token = await signer.signAssertion({
      audience: BACKEND,
      subject: 'a',
      issuer: GATEWAY,
      ttlSeconds: 30,
    });
    const verifier = createAssertionVerifier({
      issuer: GATEWAY,
      audience: BACKEND,
      jwks: signer.publicJwks(),
      clock,
    });
    assert.ok(await verifier.verify(token));
    clock.advance(36_000); // 30 s ttl + 5 s tolerance
    await assert.rejects(verifier.verify(token), code('TOKEN_EXPIRED'));
  });

  test('RFC 8725 §3.11: a user token (no assertion typ) from the same key is not accepted as an assertion', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const signer = await createAssertionSigner({ privateJwk });
    const { SignJWT } = await import('jose');
    const plain = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'JWT' })
      .setIssuer(GATEWAY)
      .setAudience(BACKEND)
      .setSubject('a')
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(privateKey);
    const verifier = createAssertionVerifier({
      issuer: GATEWAY,
      audience: BACKEND,
      jwks: signer.publicJwks(),
    });
    await assert.rejects(verifier.verify(plain), code('TYPE_MISMATCH'));
  });

  test('Decision jwt/assertion: a configured private key is reused (same kid); a wrong issuer is rejected', async () => {
    const { privateKey } = await generateKeyPair('Ed25519', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const a = await createAssertionSigner({ privateJwk });
    const b = await createAssertionSigner({ privateJwk });
    assert.equal(a.kid, b.kid);
    assert.equal(a.alg, 'EdDSA');
    const token = await a.signAssertion({
      audience: BACKEND,
      subject: 'a',
      issuer: 'https://evil.example.com',
    });
    const verifier = createAssertionVerifier({
      issuer: GATEWAY,
      audience: BACKEND,
      jwks: b.publicJwks(),
    });
    await assert.rejects(verifier.verify(token), code('ISSUER_MISMATCH'));
  });

  test('Decision jwt/assertion: ttlSeconds is limited to 300', async () => {
    const signer = await createAssertionSigner();
    await assert.rejects(
      signer.signAssertion({ audience: BACKEND, subject: 'a', issuer: GATEWAY, ttlSeconds: 301 }),
      code('CONFIG_INVALID'),
    );
  });

  test('Decision jwt/assertion: the verifier can fetch the gateway JWKS URL (loopback)', async () => {
    const signer = await createAssertionSigner();
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(signer.publicJwks()));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const verifier = createAssertionVerifier({
        issuer: GATEWAY,
        audience: BACKEND,
        jwksUrl: `http://127.0.0.1:${port}/.well-known/jwks.json`,
      });
      for (let i = 0; i < 3; i++) {
        const token = await signer.signAssertion({
          audience: BACKEND,
          subject: `u${i}`,
          issuer: GATEWAY,
        });
        assert.equal((await verifier.verify(token)).subject, `u${i}`);
      }
      assert.equal(hits, 1);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
