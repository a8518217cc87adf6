import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { createAssertionSigner } from '../../../src/gateway/auth/assertion/sign.js';
import { createAssertionVerifier } from '../../../src/gateway/auth/assertion/verify.js';
import {
  IdentityForwardingSchema,
  type IdentityForwardingConfig,
} from '../../../src/gateway/forwarding/config.js';
import { identityHeaders } from '../../../src/gateway/forwarding/identity.js';
import { isIdentityHeader } from '../../../src/gateway/catalogue/operation.js';
import type { Caller } from '../../../src/gateway/caller.js';

const aliceClaims = {
  sub: 'alice',
  email: 'alice@example.com',
  tier: 3,
  evil: 'line\r\nInjected: 1',
};
/** A caller of application `application`, as the gatekeeper describes it. */
function caller(user: Caller['user'], application: string, authorization?: string): Caller {
  return {
    requestId: 'r1',
    clientIp: '203.0.113.7',
    subscription: {
      id: 'sub_1',
      application,
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user,
    ...(authorization === undefined ? {} : { authorization }),
  };
}
const alice = { subject: 'alice', claims: aliceClaims, expiresAt: 2_000_000_000, tokenHash: 'a1' };

function config(partial: Partial<IdentityForwardingConfig>): IdentityForwardingConfig {
  return Value.Default(IdentityForwardingSchema, { ...partial }) as IdentityForwardingConfig;
}

const base = {
  backendBaseUrl: 'http://127.0.0.1:8081/payments/payment-order/v1',
  gatewayUrl: 'http://127.0.0.1:8080',
};

test('headers mode (default): user id, application, mapped claims and the shared gateway key', async () => {
  const headers = await identityHeaders(caller(alice, 'demo-agent', 'Bearer t'), {
    ...base,
    config: config({
      sharedSecret: 'shared-secret-0123456789',
      claims: { email: 'X-User-Email', tier: 'X-User-Tier', evil: 'X-User-Evil' },
    }),
  });
  assert.deepEqual(headers, {
    'X-User-Id': 'alice',
    'X-Toolgate-Application': 'demo-agent',
    'X-User-Email': 'alice@example.com',
    'X-User-Tier': '3',
    'X-Toolgate-Gateway-Key': 'shared-secret-0123456789',
  });
  assert.equal('Authorization' in headers, false, 'the client token is not passed upstream');
});

test('headers mode: anonymous callers are forwarded as "anonymous" without claims', async () => {
  const headers = await identityHeaders(caller(null, 'a'), {
    ...base,
    config: config({ claims: { email: 'X-User-Email' } }),
  });
  assert.deepEqual(headers, { 'X-User-Id': 'anonymous', 'X-Toolgate-Application': 'a' });
});

test('assertion mode: a short-lived gateway-signed JWT the backend verifies with the gateway keys', async () => {
  const signer = await createAssertionSigner();
  const headers = await identityHeaders(caller(alice, 'demo-agent'), {
    ...base,
    signer,
    config: config({ mode: 'assertion', claims: { email: 'X-User-Email' } }),
  });
  const token = headers['X-Toolgate-Identity'];
  assert.ok(token);
  const verified = await createAssertionVerifier({
    issuer: base.gatewayUrl,
    audience: 'http://127.0.0.1:8081',
    jwks: signer.publicJwks(),
  }).verify(token);
  assert.equal(verified.subject, 'alice');
  assert.equal(verified.claims.email, 'alice@example.com');
  assert.equal(verified.claims.app, 'demo-agent');
  assert.ok(verified.expiresAt - Date.now() / 1000 <= 60);
  await assert.rejects(
    createAssertionVerifier({
      issuer: base.gatewayUrl,
      audience: 'http://other-backend',
      jwks: signer.publicJwks(),
    }).verify(token),
    /audience|aud/i,
  );
});

test('passthrough mode forwards the original Authorization only for verified users', async () => {
  const user = await identityHeaders(caller(alice, 'a', 'Bearer abc.def.ghi'), {
    ...base,
    config: config({ mode: 'passthrough' }),
  });
  assert.equal(user.Authorization, 'Bearer abc.def.ghi');
  const anon = await identityHeaders(caller(null, 'a', 'Bearer junk'), {
    ...base,
    config: config({ mode: 'passthrough' }),
  });
  assert.equal(anon.Authorization, undefined);
});

test('identity-bearing header names are recognised case-insensitively', () => {
  for (const name of [
    'X-User-Id',
    'x-user-email',
    'X-USER-ANYTHING',
    'Authorization',
    'Ocp-Apim-Subscription-Key',
    'x-toolgate-gateway-key',
    'X-Toolgate-Identity',
    'Cookie',
  ]) {
    assert.equal(isIdentityHeader(name), true, name);
  }
  for (const name of ['Idempotent-Request-Key', 'Timestamp', 'X-Request-Id', 'traceparent'])
    assert.equal(isIdentityHeader(name), false, name);
});
