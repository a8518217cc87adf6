import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBearer } from '../../../../src/gateway/auth/jwt/bearer.js';
import { AuthError } from '../../../../src/gateway/auth/jwt/errors.js';

const code = (c: string) => (err: unknown) => err instanceof AuthError && err.code === c;

describe('Authorization header parsing', () => {
  test('Spec Authentication §5: a missing header yields null (anonymous)', () => {
    assert.equal(parseBearer(undefined), null);
    assert.equal(parseBearer(null), null);
    assert.equal(parseBearer(''), null);
  });

  test('RFC 6750 §2.1: the Bearer scheme is case-insensitive', () => {
    assert.equal(parseBearer('Bearer abc.def.ghi'), 'abc.def.ghi');
    assert.equal(parseBearer('bearer abc.def.ghi'), 'abc.def.ghi');
    assert.equal(parseBearer('BEARER   abc.def.ghi  '), 'abc.def.ghi');
  });

  test('RFC 6750 §2.1: another scheme is SCHEME_NOT_BEARER', () => {
    assert.throws(() => parseBearer('Basic dXNlcjpwYXNz'), code('SCHEME_NOT_BEARER'));
    assert.throws(() => parseBearer('Bearerabc.def.ghi'), code('SCHEME_NOT_BEARER'));
    assert.throws(() => parseBearer('DPoP abc.def.ghi'), code('SCHEME_NOT_BEARER'));
  });

  test('RFC 6750 §2.1: an empty or non-b64token credential is TOKEN_MALFORMED', () => {
    assert.throws(() => parseBearer('Bearer'), code('TOKEN_MALFORMED'));
    assert.throws(() => parseBearer('Bearer    '), code('TOKEN_MALFORMED'));
    assert.throws(() => parseBearer('Bearer a b'), code('TOKEN_MALFORMED'));
    assert.throws(() => parseBearer('Bearer a"b'), code('TOKEN_MALFORMED'));
    assert.throws(() => parseBearer(['Bearer a', 'Bearer b']), code('TOKEN_MALFORMED'));
  });
});
