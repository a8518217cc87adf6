import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { configuredSecrets } from '../../src/cli/secrets.js';

test('every configured secret is registered with the log scrubber', () => {
  const config = loadConfig({
    env: {},
    overrides: {
      secrets: ['extra-secret-value-1'],
      gateway: {
        database: { url: 'postgres://app:db-password-2@db:5432/x' },
        redis: { url: 'redis://:redis-password-3@cache:6379' },
        auth: {
          subscriptionKeys: { pepper: 'pepper-value-0000004' },
          assertionKey: '{"kty":"EC","d":"assertion-key-5"}',
          devIdentityProvider: {
            tokenExchange: {
              clients: [
                { clientId: 'gw', clientSecret: 'dev-exchange-secret-015', audiences: ['u'] },
              ],
            },
          },
        },
        backends: [
          {
            name: 'b',
            baseUrl: 'http://backend.internal',
            openapi: { file: 'x.yaml' },
            injectHeaders: { 'api-key': 'injected-key-000006' },
            identity: { sharedSecret: 'backend-shared-secret-7' },
          },
          {
            name: 'upstream',
            mcp: { url: 'http://mcp.internal/mcp', headers: { 'x-api-key': 'upstream-key-00011' } },
            identity: {
              mode: 'token-exchange',
              tokenExchange: {
                tokenEndpoint: 'http://as.internal/token',
                clientId: 'gateway',
                clientSecret: 'exchange-secret-0012',
              },
            },
          },
          {
            name: 'delegated',
            mcp: { url: 'http://mcp2.internal/mcp' },
            identity: {
              mode: 'delegation',
              delegation: {
                issuer: 'http://as2.internal',
                clientId: 'gateway',
                clientSecret: 'delegation-secret-013',
              },
            },
          },
        ],
        federation: { tokenKey: 'federation-token-key-000000000000014' },
      },
      payments: {
        identity: { sharedSecret: ['payments-shared-secret-8'] },
        operator: { tokens: ['operator-token-0000009'] },
        bankLookup: { apiKeys: ['bank-lookup-key-0000010'] },
      },
    },
  });
  const secrets = configuredSecrets(config);
  for (const expected of [
    'extra-secret-value-1',
    'db-password-2',
    'redis-password-3',
    'pepper-value-0000004',
    '{"kty":"EC","d":"assertion-key-5"}',
    'injected-key-000006',
    'backend-shared-secret-7',
    'payments-shared-secret-8',
    'operator-token-0000009',
    'bank-lookup-key-0000010',
    'upstream-key-00011',
    'exchange-secret-0012',
    'delegation-secret-013',
    'federation-token-key-000000000000014',
    'dev-exchange-secret-015',
  ]) {
    assert.ok(secrets.includes(expected), `missing ${expected.slice(0, 12)}…`);
  }
});
