import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { authenticateRequest } from '../../../../src/gateway/auth/jwt/authenticate.js';
import { createJwtVerifier, type JwtVerifier } from '../../../../src/gateway/auth/jwt/verify.js';
import { challengeFor } from '../../../../src/gateway/auth/jwt/www-authenticate.js';
import { AuthError } from '../../../../src/gateway/auth/jwt/errors.js';
import { makeKey, mint, type SigningKey } from '../helpers.js';
import { resolveJwtConfig } from '../../../../src/config/gateway-jwt.js';

const ISSUER = 'https://idp.example.com';
const AUDIENCE = 'https://gw.example.com/mcp';
let key: SigningKey;
let verifier: JwtVerifier;
let good: string;
const code = (c: string) => (err: unknown) => err instanceof AuthError && err.code === c;

before(async () => {
  key = await makeKey('k1');
  verifier = createJwtVerifier(
    resolveJwtConfig({
      issuer: ISSUER,
      audience: AUDIENCE,
      staticKeys: [{ jwk: key.publicJwk }],
    }),
  );
  good = await mint(key, {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: 'alice',
    exp: Math.floor(Date.now() / 1000) + 60,
  });
});

describe('request authentication modes', () => {
  test('Spec Authentication §5: conditional mode without a header is anonymous', async () => {
    const id = await authenticateRequest({
      mode: 'conditional',
      authorization: undefined,
      toolRequiresUser: false,
      verifier,
    });
    assert.equal(id, null, 'anonymous: no user');
  });

  test('Spec Authentication §4: a valid bearer token yields the subject as user id', async () => {
    const id = await authenticateRequest({
      mode: 'conditional',
      authorization: `Bearer ${good}`,
      toolRequiresUser: false,
      verifier,
    });
    assert.notEqual(id, null, 'a user');
    assert.equal(id?.subject, 'alice');
  });

  test('Spec Authentication §3: an invalid token is rejected even on a public tool', async () => {
    await assert.rejects(
      authenticateRequest({
        mode: 'conditional',
        authorization: `Bearer ${good}x`,
        toolRequiresUser: false,
        verifier,
      }),
      code('SIGNATURE_INVALID'),
    );
  });

  test('Spec Authentication §6: a tool requiring bearer rejects a request without a token', async () => {
    await assert.rejects(
      authenticateRequest({
        mode: 'conditional',
        authorization: undefined,
        toolRequiresUser: true,
        verifier,
      }),
      code('TOKEN_MISSING'),
    );
  });

  test('Spec Authentication §8: required mode rejects a request without a token on any tool', async () => {
    await assert.rejects(
      authenticateRequest({
        mode: 'required',
        authorization: undefined,
        toolRequiresUser: false,
        verifier,
      }),
      code('TOKEN_MISSING'),
    );
  });

  test('Spec Authentication §8: anonymous mode ignores the header', async () => {
    const id = await authenticateRequest({
      mode: 'anonymous',
      authorization: 'Bearer garbage',
      toolRequiresUser: false,
      verifier,
    });
    assert.equal(id, null, 'anonymous: no user');
  });

  test('RFC 6750 §3.1: challengeFor — no error attribute for a missing token, invalid_request for a wrong scheme', () => {
    const meta = {
      resourceMetadata: 'https://gw.example.com/.well-known/oauth-protected-resource/mcp',
    };
    assert.equal(
      challengeFor(new AuthError('TOKEN_MISSING', 'x'), meta),
      `Bearer resource_metadata="${meta.resourceMetadata}"`,
    );
    assert.match(
      challengeFor(new AuthError('SCHEME_NOT_BEARER', 'x'), meta),
      /^Bearer error="invalid_request"/,
    );
    assert.match(
      challengeFor(new AuthError('TOKEN_EXPIRED', 'the token has expired'), meta),
      /error="invalid_token", error_description="the token has expired"/,
    );
  });
});
