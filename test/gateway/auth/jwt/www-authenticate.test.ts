import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  challengeErrorFor,
  invalidTokenChallenge,
  missingTokenChallenge,
} from '../../../../src/gateway/auth/jwt/www-authenticate.js';

const META = 'https://gw.example.com/.well-known/oauth-protected-resource/mcp';

describe('WWW-Authenticate challenges', () => {
  test('RFC 6750 §3.1 / RFC 9728 §5.1: a missing token yields no error attribute, only resource_metadata', () => {
    assert.equal(
      missingTokenChallenge({ resourceMetadata: META }),
      `Bearer resource_metadata="${META}"`,
    );
    assert.equal(missingTokenChallenge(), 'Bearer');
  });

  test('RFC 6750 §3: an invalid token yields error="invalid_token" with description and resource_metadata', () => {
    assert.equal(
      invalidTokenChallenge('the token has expired', { resourceMetadata: META }),
      `Bearer error="invalid_token", error_description="the token has expired", resource_metadata="${META}"`,
    );
  });

  test('RFC 6750 §3: error_description never contains characters outside %x20-21 / %x23-5B / %x5D-7E', () => {
    const header = invalidTokenChallenge('bad "quote" \\ back\r\nInjected: 1 é');
    const description = /error_description="([^"]*)"/.exec(header)?.[1];
    assert.ok(description !== undefined);
    assert.match(description, /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/);
    assert.ok(!header.includes('\r') && !header.includes('\n'));
  });

  test('RFC 9110 §5.6.4: quoted values escape quotes and backslashes', () => {
    assert.equal(missingTokenChallenge({ realm: 'a"b\\c' }), 'Bearer realm="a\\"b\\\\c"');
  });

  test('RFC 6750 §3.1: a wrong scheme is invalid_request, token problems are invalid_token', () => {
    assert.equal(challengeErrorFor('SCHEME_NOT_BEARER'), 'invalid_request');
    assert.equal(challengeErrorFor('TOKEN_EXPIRED'), 'invalid_token');
  });
});
