import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requiredScopesOf } from '../../../src/gateway/catalogue/security.js';

const document = {
  components: {
    securitySchemes: {
      oauth: { type: 'oauth2', flows: {} },
      oidc: {
        type: 'openIdConnect',
        openIdConnectUrl: 'https://idp/.well-known/openid-configuration',
      },
      bearer: { type: 'http', scheme: 'bearer' },
    },
  },
};

test('OpenAPI security: the scopes of OAuth 2 / OIDC requirements; every alternative must share them', () => {
  assert.deepEqual(requiredScopesOf({ security: [{ oauth: ['b', 'a'] }] }, document), ['a', 'b']);
  assert.deepEqual(
    requiredScopesOf({ security: [{ oauth: ['a', 'b'] }, { oidc: ['a'] }] }, document),
    ['a'],
    'a token with only "a" satisfies the second alternative',
  );
  assert.deepEqual(requiredScopesOf({ security: [{ bearer: [] }] }, document), []);
  assert.deepEqual(requiredScopesOf({}, { ...document, security: [{ oidc: ['x'] }] }), ['x']);
  assert.deepEqual(requiredScopesOf({ security: [{ oauth: ['a'] }, {}] }, document), []);
  assert.deepEqual(
    requiredScopesOf({ security: [{ oauth: ['a'] }, { bearer: [] }] }, document),
    [],
  );
});
