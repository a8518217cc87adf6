// Identity to upstream MCP servers, per backend (issue 28, "Identity to upstream MCP servers"): none; the
// identity headers or signed assertion the HTTP backends get; the caller's token passed through (opt-in,
// audience checked: RFC 8707, MCP security best practices "token passthrough"); token exchange and
// delegation through the providers other modules build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from '@sinclair/typebox/value';
import { createAssertionSigner } from '../../../src/gateway/auth/assertion/sign.js';
import { createAssertionVerifier } from '../../../src/gateway/auth/assertion/verify.js';
import { BackendSchema, type BackendConfig } from '../../../src/config/gateway-mcp.js';
import { ConfigError } from '../../../src/config/errors.js';
import type { Caller } from '../../../src/gateway/caller.js';
import {
  UpstreamIdentityRefused,
  sameResource,
  upstreamIdentity,
  type FederatedBackend,
} from '../../../src/gateway/federation/identity.js';
import type { UpstreamCredentials } from '../../../src/gateway/federation/contracts.js';

const UPSTREAM_URL = 'http://127.0.0.1:3901/mcp';

function backend(
  name: string,
  identity: Record<string, unknown>,
  url = UPSTREAM_URL,
): BackendConfig {
  return Value.Default(BackendSchema, {
    name,
    mcp: Value.Default(BackendSchema.properties.mcp, { url }),
    identity: Value.Default(BackendSchema.properties.identity, identity),
  }) as BackendConfig;
}

function caller(
  user: { subject: string; claims: Record<string, unknown> } | null,
  authorization?: string,
): Caller {
  return {
    requestId: 'r1',
    clientIp: '203.0.113.7',
    subscription: {
      id: 'sub_1',
      application: 'demo-agent',
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user:
      user === null ? null : { ...user, expiresAt: 2_000_000_000, tokenHash: `h-${user.subject}` },
    ...(authorization === undefined ? {} : { authorization }),
  };
}

const alice = (claims: Record<string, unknown> = {}) =>
  caller(
    { subject: 'alice', claims: { sub: 'alice', email: 'alice@example.com', ...claims } },
    'Bearer alice.token.sig',
  );

async function headersOf(
  credentials: Promise<UpstreamCredentials>,
): Promise<Record<string, string>> {
  const c = await credentials;
  assert.equal(c.kind, 'headers');
  return { ...(c as Extract<UpstreamCredentials, { kind: 'headers' }>).headers };
}

test('mode none: nothing about the user, not even the client token', async () => {
  const identity = upstreamIdentity({
    backends: [backend('up', { mode: 'none' })],
    gatewayUrl: 'http://127.0.0.1:8080',
  });
  assert.deepEqual(await headersOf(identity(alice(), 'up')), {});
});

test('mode headers: the identity headers HTTP backends get (user, application, claims, shared key), never the client token', async () => {
  const identity = upstreamIdentity({
    backends: [
      backend('up', {
        mode: 'headers',
        sharedSecret: 'shared-secret-0123456789',
        claims: { email: 'X-User-Email' },
      }),
    ],
    gatewayUrl: 'http://127.0.0.1:8080',
    forwardClaims: () => ({ tier: 'X-User-Tier' }),
  });
  assert.deepEqual(await headersOf(identity(alice({ tier: 2 }), 'up')), {
    'X-User-Id': 'alice',
    'X-Toolgate-Application': 'demo-agent',
    'X-User-Email': 'alice@example.com',
    'X-User-Tier': '2',
    'X-Toolgate-Gateway-Key': 'shared-secret-0123456789',
  });
  assert.equal(
    (await headersOf(identity(caller(null), 'up')))['X-User-Id'],
    'anonymous',
    'an anonymous caller is forwarded as anonymous',
  );
});

test('mode assertion: a gateway-signed assertion whose audience defaults to the upstream URL origin', async () => {
  const signer = await createAssertionSigner();
  const identity = upstreamIdentity({
    backends: [
      backend('up', { mode: 'assertion', claims: { email: 'X-User-Email' } }),
      backend('named', { mode: 'assertion', audience: 'urn:upstream:named' }),
    ],
    gatewayUrl: 'http://127.0.0.1:8080',
    signer,
  });
  const token = (await headersOf(identity(alice(), 'up')))['X-Toolgate-Identity'];
  assert.ok(token);
  const verified = await createAssertionVerifier({
    issuer: 'http://127.0.0.1:8080',
    audience: 'http://127.0.0.1:3901',
    jwks: signer.publicJwks(),
  }).verify(token);
  assert.equal(verified.subject, 'alice');
  assert.equal(verified.claims.email, 'alice@example.com');
  assert.equal(verified.claims.app, 'demo-agent');
  const named = (await headersOf(identity(alice(), 'named')))['X-Toolgate-Identity'];
  assert.ok(named);
  const checked = await createAssertionVerifier({
    issuer: 'http://127.0.0.1:8080',
    audience: 'urn:upstream:named',
    jwks: signer.publicJwks(),
  }).verify(named);
  assert.equal(checked.subject, 'alice');
});

test('mode passthrough: the caller token goes on only when its aud includes the upstream URL (RFC 8707)', async () => {
  const identity = upstreamIdentity({
    backends: [backend('up', { mode: 'passthrough' })],
    gatewayUrl: 'http://127.0.0.1:8080',
  });
  const meant = alice({ aud: ['http://127.0.0.1:8080/mcp', UPSTREAM_URL] });
  assert.deepEqual(await headersOf(identity(meant, 'up')), {
    Authorization: 'Bearer alice.token.sig',
  });
  const single = alice({ aud: UPSTREAM_URL });
  assert.equal((await headersOf(identity(single, 'up'))).Authorization, 'Bearer alice.token.sig');
});

test('mode passthrough: a token for another audience is refused with a message naming the mismatch, never sent', async () => {
  const identity = upstreamIdentity({
    backends: [backend('up', { mode: 'passthrough' })],
    gatewayUrl: 'http://127.0.0.1:8080',
  });
  for (const aud of ['http://127.0.0.1:8080/mcp', ['http://127.0.0.1:8080/mcp'], undefined]) {
    const refused = await identity(alice(aud === undefined ? {} : { aud }), 'up').then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refused instanceof UpstreamIdentityRefused, `aud ${JSON.stringify(aud)}`);
    assert.equal(refused.backend, 'up');
    assert.match(refused.message, /not meant for the service behind up/);
    assert.match(refused.message, /RFC 8707/);
    assert.match(refused.message, aud === undefined ? /audience \(none\)/ : /8080\/mcp/);
    assert.doesNotMatch(refused.message, /alice\.token/, 'the token is never echoed');
  }
});

test('mode passthrough: identity.audience names the resource when set; anonymous callers send no Authorization', async () => {
  const identity = upstreamIdentity({
    backends: [backend('up', { mode: 'passthrough', audience: 'api://upstream' })],
    gatewayUrl: 'http://127.0.0.1:8080',
  });
  assert.equal(
    (await headersOf(identity(alice({ aud: ['api://upstream'] }), 'up'))).Authorization,
    'Bearer alice.token.sig',
  );
  await assert.rejects(identity(alice({ aud: [UPSTREAM_URL] }), 'up'), UpstreamIdentityRefused);
  assert.deepEqual(await headersOf(identity(caller(null, 'Bearer junk'), 'up')), {});
});

test('audience comparison: the same URL normalised matches; another path, a prefix or the origin alone does not', () => {
  assert.equal(sameResource('http://127.0.0.1:3901/mcp/', UPSTREAM_URL), true);
  assert.equal(sameResource('HTTP://127.0.0.1:3901/mcp', UPSTREAM_URL), true);
  assert.equal(sameResource('https://up.example:443/mcp', 'https://UP.example/mcp'), true);
  assert.equal(sameResource('http://127.0.0.1:3901', UPSTREAM_URL), false);
  assert.equal(sameResource('http://127.0.0.1:3901/mcp/other', UPSTREAM_URL), false);
  assert.equal(sameResource('http://127.0.0.1:3901/mc', UPSTREAM_URL), false);
  assert.equal(sameResource('http://127.0.0.1:3902/mcp', UPSTREAM_URL), false);
  assert.equal(sameResource('http://user@127.0.0.1:3901/mcp', UPSTREAM_URL), false);
  assert.equal(sameResource('api://upstream', 'api://upstream'), true);
  assert.equal(sameResource('api://upstream/', 'api://upstream'), false);
});

test('token-exchange and delegation: the providers answer, given the caller and the backend configuration', async () => {
  const seen: string[] = [];
  const identity = upstreamIdentity({
    backends: [
      backend('x', {
        mode: 'token-exchange',
        tokenExchange: {
          tokenEndpoint: 'http://127.0.0.1:9/token',
          clientId: 'gw',
          clientSecret: 's',
          timeoutMs: 5000,
        },
      }),
      backend('d', {
        mode: 'delegation',
        delegation: { issuer: 'http://127.0.0.1:9', clientId: 'gw', scopes: [], timeoutMs: 5000 },
      }),
    ],
    gatewayUrl: 'http://127.0.0.1:8080',
    providers: {
      tokenExchange: async (c, b: FederatedBackend) => {
        seen.push(`x:${c.user?.subject}:${b.name}:${b.mcp.url}`);
        return { kind: 'headers', headers: { Authorization: 'Bearer exchanged' } };
      },
      delegation: async (c, b) => ({
        kind: 'sign-in',
        backend: b.name,
        url: `http://127.0.0.1:8080/federation/sign-in/${b.name}`,
        message: 'Sign in',
        elicitationId: `${c.user?.subject}-${b.name}`,
      }),
    },
  });
  assert.deepEqual(await headersOf(identity(alice(), 'x')), {
    Authorization: 'Bearer exchanged',
  });
  assert.deepEqual(seen, [`x:alice:x:${UPSTREAM_URL}`]);
  const d = await identity(alice(), 'd');
  assert.equal(d.kind, 'sign-in');
  assert.equal(d.kind === 'sign-in' && d.elicitationId, 'alice-d');
});

test('configuration errors at startup: a mode without its provider or signing key names the backend', () => {
  const tokenExchange = {
    mode: 'token-exchange',
    tokenExchange: { tokenEndpoint: 'http://127.0.0.1:9/t', clientId: 'a', clientSecret: 'b' },
  };
  assert.throws(
    () => upstreamIdentity({ backends: [backend('x', tokenExchange)], gatewayUrl: 'http://g' }),
    (e: unknown) =>
      e instanceof ConfigError &&
      /gateway\.backends\[0\] \(x\)\.identity\.mode: token-exchange/.test(e.message),
  );
  const delegation = {
    mode: 'delegation',
    delegation: { issuer: 'http://127.0.0.1:9', clientId: 'gw' },
  };
  assert.throws(
    () =>
      upstreamIdentity({
        backends: [backend('a', { mode: 'none' }), backend('d', delegation)],
        gatewayUrl: 'http://g',
        providers: { tokenExchange: async () => ({ kind: 'headers', headers: {} }) },
      }),
    /gateway\.backends\[1\] \(d\)\.identity\.mode: delegation/,
  );
  assert.throws(
    () =>
      upstreamIdentity({
        backends: [backend('s', { mode: 'assertion' })],
        gatewayUrl: 'http://g',
      }),
    /\(s\)\.identity\.mode: assertion needs the gateway's signing key/,
  );
  // An OpenAPI backend is not this module's concern, whatever its mode.
  const http = Value.Default(BackendSchema, {
    name: 'http',
    baseUrl: 'http://127.0.0.1:9',
    openapi: { file: 'x.yaml' },
    identity: { mode: 'assertion' },
  }) as BackendConfig;
  const identity = upstreamIdentity({ backends: [http], gatewayUrl: 'http://g' });
  return assert.rejects(identity(alice(), 'http'), /not an upstream MCP backend/);
});
