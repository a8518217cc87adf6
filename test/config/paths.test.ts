// Issue 27, trap 6 ("Paths"): every path in the configuration file is resolved from the file's folder —
// `openapi.file` as `dataDir` already was — whatever the working directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { packageRoot } from '../../src/shared/package-root.js';

function folderWithConfig(yaml: string): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-paths-'));
  const path = join(dir, 'toolgate.yaml');
  writeFileSync(path, yaml);
  return { dir, path };
}

const PETSTORE = join(packageRoot(), 'examples', 'petstore', 'petstore.yaml');

test('issue 27 trap 6: openapi.file is read from the configuration file’s folder, not the working directory', () => {
  const { dir, path } = folderWithConfig(`gateway:
  backends:
    - name: petstore
      baseUrl: http://127.0.0.1:4010
      openapi: { file: apis/petstore.yaml }
dataDir: state
`);
  mkdirSync(join(dir, 'apis'));
  copyFileSync(PETSTORE, join(dir, 'apis', 'petstore.yaml'));
  const config = loadConfig({ configPath: path, env: {} });
  const backend = config.gateway.backends[0];
  assert.ok(backend?.openapi !== undefined && 'file' in backend.openapi);
  assert.equal(backend.openapi.file, join(dir, 'apis', 'petstore.yaml'));
  assert.equal(config.dataDir, join(dir, 'state'), 'dataDir follows the same rule');
});

test('issue 27 trap 6: payments.fees.rates.file is read from the configuration file’s folder', () => {
  const { dir, path } = folderWithConfig(
    'payments:\n  fees:\n    rates:\n      file: rates.yaml\n',
  );
  const config = loadConfig({ configPath: path, env: {} });
  assert.equal(config.payments.fees.rates.file, join(dir, 'rates.yaml'));
});

test('issue 27 trap 6: absolute paths stay; the shipped documents’ names keep naming the package’s documents', () => {
  const { path } = folderWithConfig(`gateway:
  backends:
    - name: payments
      baseUrl: http://127.0.0.1:8081/payments/payment-order/v1
      openapi: { file: src/payments/openapi/payment-order.yaml }
    - name: petstore
      baseUrl: http://127.0.0.1:4010
      openapi: { file: ${JSON.stringify(PETSTORE)} }
`);
  const config = loadConfig({ configPath: path, env: {} });
  const files = config.gateway.backends.map((b) =>
    b.openapi !== undefined && 'file' in b.openapi ? b.openapi.file : '',
  );
  assert.deepEqual(files, ['src/payments/openapi/payment-order.yaml', PETSTORE]);
});

test('issue 27 trap 6: a shipped document’s name is the folder’s own file when the folder holds one', () => {
  const { dir, path } = folderWithConfig(`gateway:
  backends:
    - name: accounts
      baseUrl: http://127.0.0.1:8081/accounts/v1
      openapi: { file: src/payments/openapi/accounts.yaml }
`);
  mkdirSync(join(dir, 'src', 'payments', 'openapi'), { recursive: true });
  writeFileSync(join(dir, 'src', 'payments', 'openapi', 'accounts.yaml'), 'openapi: 3.0.3\n');
  const config = loadConfig({ configPath: path, env: {} });
  const backend = config.gateway.backends[0];
  assert.ok(backend?.openapi !== undefined && 'file' in backend.openapi);
  assert.equal(backend.openapi.file, join(dir, 'src', 'payments', 'openapi', 'accounts.yaml'));
});

test('issue 27 trap 6: paths given by the caller (overrides) stay as given', () => {
  const { path } = folderWithConfig('logging:\n  level: warn\n');
  const config = loadConfig({
    configPath: path,
    env: {},
    overrides: { payments: { fees: { rates: { file: 'relative/rates.yaml' } } } },
  });
  assert.equal(config.payments.fees.rates.file, 'relative/rates.yaml');
});
