// Identity-provider key refreshes on /metrics (issue 29, "certificate/JWKS fetch failures" alert): the
// remote key set reports each refresh, and the gateway counts them by outcome in
// toolgate_jwks_refreshes_total (present at 0 from the start, so an alert's increase() has a series).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportJWK, generateKeyPair } from 'jose';
import { createRemoteKeySet } from '../../../src/gateway/auth/jwt/discovery.js';
import type { FetchFn } from '../../../src/gateway/auth/jwt/fetch-json.js';
import { createGatewayMetrics } from '../../../src/gateway/metrics.js';

const ISSUER = 'https://idp.example.test';

test('each refresh is reported: loaded when discovery and JWKS answer, an error when the JWKS fails', async () => {
  const { publicKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  let jwksUp = true;
  // The provider over HTTP, answered here: the discovery document and, while up, its JWKS.
  const fetch: FetchFn = async (url) =>
    String(url).endsWith('/.well-known/openid-configuration')
      ? Response.json({ issuer: ISSUER, jwks_uri: `${ISSUER}/jwks` })
      : jwksUp
        ? Response.json(jwks)
        : new Response('down', { status: 503 });
  const metrics = createGatewayMetrics({ path: '/metrics', mcpPath: '/mcp' });
  const outcomes: string[] = [];
  const keys = createRemoteKeySet({
    issuer: ISSUER,
    discoveryUrl: `${ISSUER}/.well-known/openid-configuration`,
    timeoutMs: 1000,
    cacheMaxAgeMs: 60_000,
    cooldownMs: 0,
    staleIfErrorMs: 60_000,
    maxResponseBytes: 65_536,
    fetch,
    onLoaded: () => {
      outcomes.push('ok');
      metrics.identityKeys.refreshed('ok');
    },
    onError: () => {
      outcomes.push('failed');
      metrics.identityKeys.refreshed('failed');
    },
  });
  await keys.refresh();
  jwksUp = false;
  await assert.rejects(keys.refresh());
  await assert.rejects(keys.refresh());
  assert.deepEqual(outcomes, ['ok', 'failed', 'failed']);

  const app = (await import('fastify')).default();
  await app.register(metrics.routes);
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  await app.close();
  metrics.close();
  assert.match(text, /^toolgate_jwks_refreshes_total\{outcome="ok"\} 1$/m);
  assert.match(text, /^toolgate_jwks_refreshes_total\{outcome="failed"\} 2$/m);
});

test('the counter exists at 0 for both outcomes before any refresh', async () => {
  const metrics = createGatewayMetrics({ path: '/metrics', mcpPath: '/mcp' });
  const app = (await import('fastify')).default();
  await app.register(metrics.routes);
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  await app.close();
  metrics.close();
  assert.match(text, /^toolgate_jwks_refreshes_total\{outcome="ok"\} 0$/m);
  assert.match(text, /^toolgate_jwks_refreshes_total\{outcome="failed"\} 0$/m);
});
