import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grantedScopes, missingScopes } from '../../../../src/gateway/auth/jwt/scopes.js';
import {
  insufficientScopeChallenge,
  missingTokenChallenge,
} from '../../../../src/gateway/auth/jwt/www-authenticate.js';

test('grantedScopes: scope and scp, as strings or arrays; empty items and non-strings ignored', () => {
  assert.deepEqual([...grantedScopes({ scope: 'a  b' })], ['a', 'b']);
  assert.deepEqual([...grantedScopes({ scp: 'c d' })], ['c', 'd']);
  assert.deepEqual([...grantedScopes({ scp: ['e', 7, 'f'] })], ['e', 'f']);
  assert.deepEqual([...grantedScopes({ scope: 'a', scp: ['b'] })], ['a', 'b']);
  assert.deepEqual([...grantedScopes({ scope: 42 })], []);
});

test('missingScopes keeps the required order and drops granted ones', () => {
  assert.deepEqual(missingScopes(['x', 'y', 'z'], { scope: 'y' }), ['x', 'z']);
  assert.deepEqual(missingScopes([], {}), []);
});

test('RFC 6750 §3: scope in challenges; insufficient_scope with a quoted description', () => {
  assert.equal(
    missingTokenChallenge({ resourceMetadata: 'https://g/m', scope: ['openid', 'a:b'] }),
    'Bearer resource_metadata="https://g/m", scope="openid a:b"',
  );
  assert.equal(missingTokenChallenge({ scope: [] }), 'Bearer');
  assert.equal(
    insufficientScopeChallenge('needs "a"', { scope: ['a'], resourceMetadata: 'https://g/m' }),
    `Bearer error="insufficient_scope", error_description="needs 'a'", resource_metadata="https://g/m", scope="a"`,
  );
});
