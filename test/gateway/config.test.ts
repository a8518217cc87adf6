// gateway.backends / gateway.mcp configuration: defaults register the payment service; errors name the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.js';

test('by default the payment service’s two documents are registered with every operation approved', () => {
  const config = loadConfig({ env: {} });
  assert.deepEqual(
    config.gateway.backends.map((b) => [b.name, b.baseUrl, b.openapi, b.approve]),
    [
      [
        'payments',
        'http://127.0.0.1:8081/payments/payment-order/v1',
        { file: 'src/payments/openapi/payment-order.yaml' },
        'all',
      ],
      [
        'accounts',
        'http://127.0.0.1:8081/accounts/v1',
        { file: 'src/payments/openapi/accounts.yaml' },
        'all',
      ],
    ],
  );
  assert.equal(config.gateway.mcp.path, '/mcp');
  assert.equal(config.gateway.mcp.pageSize, 100);
  assert.deepEqual(config.gateway.mcp.allowedOrigins, []);
});

test('a configured backend gets defaults for timeouts, limits and approval; secrets may come from the environment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-config-'));
  const file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      gateway: {
        backends: [
          {
            name: 'x',
            baseUrl: 'http://10.0.0.1/v1',
            openapi: { url: 'http://10.0.0.1/openapi.json' },
            injectHeaders: { 'api-key': '${env:BANK_KEY}' },
          },
        ],
      },
    }),
  );
  const config = loadConfig({ configPath: file, env: { BANK_KEY: 'k-123' } });
  rmSync(dir, { recursive: true, force: true });
  const [backend] = config.gateway.backends;
  assert.deepEqual(backend?.timeouts, { connectMs: 2000, headersMs: 10000, totalMs: 15000 });
  assert.equal(backend?.maxResponseBytes, 1048576);
  assert.deepEqual(backend?.approve, []);
  assert.deepEqual(backend?.injectHeaders, { 'api-key': 'k-123' });
});

test('invalid backend settings are refused with the key named', () => {
  assert.throws(
    () =>
      loadConfig({
        env: {},
        overrides: {
          gateway: { backends: [{ name: 'bad name', baseUrl: 'ftp://x', openapi: { file: 'a' } }] },
        },
      }),
    (e: unknown) => e instanceof ConfigError && /gateway\.backends/.test(e.message),
  );
});
