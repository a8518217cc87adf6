// Statically configured keys: JWK, PEM SPKI, PEM X.509 certificate; several keys; config guards.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import { createJwtVerifier } from '../../../../src/gateway/auth/jwt/verify.js';
import { AuthError } from '../../../../src/gateway/auth/jwt/errors.js';
import { makeKey, mint, recordingFetch, type SigningKey } from '../helpers.js';
import { resolveJwtConfig } from '../../../../src/config/gateway-jwt.js';

const ISSUER = 'https://idp.example.com';
const AUDIENCE = 'https://gateway.test/mcp';
let rsa: SigningKey;
let ec: SigningKey;
const claims = (extra: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  aud: AUDIENCE,
  sub: 'alice',
  exp: Math.floor(Date.now() / 1000) + 300,
  ...extra,
});
const spki = (k: SigningKey) =>
  createPublicKey({ key: k.publicJwk as JsonWebKey, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();

function isCode(code: string) {
  return (err: unknown) => err instanceof AuthError && err.code === code;
}

before(async () => {
  rsa = await makeKey('rsa-1', 'RS256');
  ec = await makeKey('ec-1', 'ES256');
});

describe('static keys', () => {
  test('Spec Authentication §2: a static JWK verifies and no discovery request is made', async () => {
    const fetch = recordingFetch();
    const verifier = createJwtVerifier(
      resolveJwtConfig({
        issuer: ISSUER,
        audience: AUDIENCE,
        staticKeys: [{ jwk: rsa.publicJwk }],
      }),
      { fetch },
    );
    assert.equal((await verifier.verify(await mint(rsa, claims()))).subject, 'alice');
    assert.equal(fetch.urls.length, 0);
  });

  test('Spec Authentication §2: several static keys (JWK + PEM SPKI) are selected by kid', async () => {
    const verifier = createJwtVerifier(
      resolveJwtConfig({
        issuer: ISSUER,
        audience: AUDIENCE,
        staticKeys: [{ jwk: rsa.publicJwk }, { kid: 'ec-1', pem: spki(ec) }],
      }),
    );
    assert.equal((await verifier.verify(await mint(rsa, claims({ sub: 'r' })))).subject, 'r');
    assert.equal((await verifier.verify(await mint(ec, claims({ sub: 'e' })))).subject, 'e');
    await assert.rejects(
      verifier.verify(await mint(rsa, claims(), { kid: 'ec-1' })),
      isCode('KEY_NOT_FOUND'),
    );
  });

  test('RFC 7515 §4.1.4: without a kid, the key fitting the alg is used', async () => {
    const other = await makeKey('rsa-2', 'RS256');
    const verifier = createJwtVerifier(
      resolveJwtConfig({
        issuer: ISSUER,
        audience: AUDIENCE,
        staticKeys: [{ pem: spki(other) }, { pem: spki(rsa) }, { pem: spki(ec) }],
      }),
    );
    const noKid = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'RS256' })
      .sign(rsa.privateKey);
    assert.equal((await verifier.verify(noKid)).subject, 'alice');
    const stranger = await makeKey('x', 'RS256');
    const bad = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'RS256' })
      .sign(stranger.privateKey);
    await assert.rejects(verifier.verify(bad), isCode('SIGNATURE_INVALID'));
  });

  test('RFC 5280 §4.1: a PEM X.509 certificate can be configured as a static key', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-x509-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=idp',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      t.skip('openssl not available');
      return;
    }
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const privateKey = await importPKCS8(readFileSync(join(dir, 'key.pem'), 'utf8'), 'ES256');
    const verifier = createJwtVerifier(
      resolveJwtConfig({
        issuer: ISSUER,
        audience: AUDIENCE,
        staticKeys: [{ kid: 'cert-1', pem: cert }],
      }),
    );
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'ES256', kid: 'cert-1' })
      .sign(privateKey);
    assert.equal((await verifier.verify(token)).subject, 'alice');
  });

  test('RFC 8725 §3.1: a static key restricted to one alg is not used for another', async () => {
    const verifier = createJwtVerifier(
      resolveJwtConfig({
        issuer: ISSUER,
        audience: AUDIENCE,
        staticKeys: [{ alg: 'PS256', jwk: { ...rsa.publicJwk, alg: undefined } }],
      }),
    );
    await assert.rejects(verifier.verify(await mint(rsa, claims())), isCode('KEY_NOT_FOUND'));
  });

  test('Decision jwt/static-keys: private key material in a static key is refused at configuration', () => {
    assert.throws(
      () =>
        createJwtVerifier(
          resolveJwtConfig({
            issuer: ISSUER,
            audience: AUDIENCE,
            staticKeys: [{ jwk: rsa.privateJwk }],
          }),
        ),
      isCode('CONFIG_INVALID'),
    );
    assert.throws(
      () =>
        createJwtVerifier(
          resolveJwtConfig({
            issuer: ISSUER,
            audience: AUDIENCE,
            staticKeys: [{ pem: 'garbage' }],
          }),
        ),
      isCode('CONFIG_INVALID'),
    );
  });

  test('RFC 7518 §3.2: a static HMAC key shorter than the hash output is refused', () => {
    assert.throws(
      () =>
        createJwtVerifier(
          resolveJwtConfig({
            issuer: ISSUER,
            audience: AUDIENCE,
            algorithms: ['HS256'],
            staticKeys: [
              { alg: 'HS256', jwk: { kty: 'oct', k: Buffer.alloc(16).toString('base64url') } },
            ],
          }),
        ),
      isCode('CONFIG_INVALID'),
    );
  });
});
