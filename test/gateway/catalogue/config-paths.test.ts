// Issue 27, trap 6 ("Paths"): a backend's `openapi.file` named relative to the configuration file's folder
// is the document the catalogue is built from, whatever the working directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { loadCatalogue } from '../../../src/gateway/catalogue/load.js';
import { packageRoot } from '../../../src/shared/package-root.js';

test('issue 27 trap 6: the catalogue reads openapi.file from the configuration file’s folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-paths-'));
  mkdirSync(join(dir, 'apis'));
  copyFileSync(
    join(packageRoot(), 'examples', 'petstore', 'petstore.yaml'),
    join(dir, 'apis', 'petstore.yaml'),
  );
  const path = join(dir, 'toolgate.yaml');
  writeFileSync(
    path,
    'gateway:\n  backends:\n    - name: petstore\n      baseUrl: http://127.0.0.1:4010\n      openapi: { file: apis/petstore.yaml }\n',
  );
  // The working directory (the repository) has no apis/ folder: only the file's folder does.
  assert.notEqual(process.cwd(), dir);
  const config = loadConfig({ configPath: path, env: {} });
  const catalogue = await loadCatalogue(config.gateway.backends);
  assert.ok(catalogue.byName.has('listPets'));
});
