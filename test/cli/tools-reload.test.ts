// `toolgate tools reload`: checks that the catalogue builds from the current documents and overrides,
// then raises the catalogue generation in the gateway database (every replica on it rebuilds; see
// test/gateway/catalogue/reload.test.ts); a catalogue that does not build changes nothing, exit 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { openGatewayDatabase } from '../../src/gateway/database.js';
import { CatalogueGenerationRepository } from '../../src/gateway/storage/catalogue-generation.js';
import { runCli } from '../helpers/process.js';

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'openapi', 'fixture-backend.yaml');

test('tools reload: generation 1, 2 …; a document that does not build → exit 1, generation unchanged', async () => {
  const project = mkdtempSync(join(tmpdir(), 'toolgate-reload-cli-'));
  const document = join(project, 'backend.yaml');
  copyFileSync(
    join(process.cwd(), 'test', 'fixtures', 'openapi', 'fixture-backend.yaml'),
    document,
  );
  const configFile = join(project, 'toolgate.yaml');
  writeFileSync(
    configFile,
    [
      'dataDir: state',
      'gateway:',
      '  backends:',
      '    - name: fixture',
      '      baseUrl: http://127.0.0.1:9/api/v1',
      `      openapi: { file: ${JSON.stringify(document)} }`,
      '      approve: all',
      '',
    ].join('\n'),
  );
  // The gateway's store, as a running gateway (or `toolgate keys create`) leaves it.
  const config = loadConfig({ configPath: configFile, env: {} });
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  await db.close();

  const first = await runCli(['tools', 'reload', '--config', configFile, '--json']);
  assert.equal(first.code, 0, first.stderr);
  const out = JSON.parse(first.stdout) as { generation: number; tools: number; refreshMs: number };
  assert.equal(out.generation, 1);
  assert.equal(out.tools, 8);
  assert.equal(out.refreshMs, 5000);
  const second = await runCli(['tools', 'reload', '--config', configFile]);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /^catalogue generation 2 requested \(8 tools\)/);

  writeFileSync(document, 'openapi: 3.1.0\npaths: [broken\n');
  const broken = await runCli(['tools', 'reload', '--config', configFile]);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /^toolgate tools: the catalogue does not build, nothing changed: /);
  const check = await openGatewayDatabase(config.gateway.database, config.dataDir);
  try {
    assert.equal(await new CatalogueGenerationRepository(check).current(), 2);
  } finally {
    await check.close();
  }
  const usage = await runCli(['tools', 'reload', 'getPayment', '--config', configFile]);
  assert.equal(usage.code, 2);
});

test('tools reload refuses a structurally broken document (paths 42, null, [], {}) and a large loss, exit 1; --force asks anyway', async () => {
  const project = mkdtempSync(join(tmpdir(), 'toolgate-reload-guard-cli-'));
  const document = join(project, 'backend.yaml');
  const original = readFileSync(FIXTURE, 'utf8');
  const withPaths = (paths: unknown) =>
    stringify({ ...(parse(original) as Record<string, unknown>), paths });
  writeFileSync(document, original);
  const configFile = join(project, 'toolgate.yaml');
  writeFileSync(
    configFile,
    [
      'dataDir: state',
      'gateway:',
      '  backends:',
      '    - name: fixture',
      '      baseUrl: http://127.0.0.1:9/api/v1',
      `      openapi: { file: ${JSON.stringify(document)} }`,
      '      approve: all',
      '',
    ].join('\n'),
  );
  const config = loadConfig({ configPath: configFile, env: {} });
  const generation = async () => {
    const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
    try {
      return await new CatalogueGenerationRepository(db).current();
    } finally {
      await db.close();
    }
  };
  assert.equal(await generation(), 0);
  const accepted = await runCli(['tools', 'reload', '--config', configFile]);
  assert.equal(accepted.code, 0, accepted.stderr);
  assert.match(accepted.stdout, /\(8 tools\)/);

  // Not OpenAPI: refused, and cannot be forced.
  for (const [paths, force] of [
    [42, []],
    [null, []],
    [[], []],
    [42, ['--force']],
  ] as const) {
    writeFileSync(document, withPaths(paths));
    const refused = await runCli(['tools', 'reload', '--config', configFile, ...force]);
    assert.equal(refused.code, 1, `${JSON.stringify(paths)} ${force.join('')}`);
    assert.match(
      refused.stderr,
      /^toolgate tools: the catalogue does not build, nothing changed: backend fixture: cannot load its OpenAPI document: the document does not follow the OpenAPI schema: \/paths must be object\n$/,
    );
  }
  writeFileSync(document, withPaths({}));
  const empty = await runCli(['tools', 'reload', '--config', configFile]);
  assert.equal(empty.code, 1);
  assert.equal(
    empty.stderr,
    'toolgate tools: the catalogue is refused, nothing changed (the gateways keep serving theirs): backend fixture: its OpenAPI document yields no tools (no operations under paths); --force to reload anyway\n',
  );
  const [first] = Object.entries((parse(original) as { paths: Record<string, unknown> }).paths);
  writeFileSync(document, withPaths(Object.fromEntries([first ?? []])));
  const loss = await runCli(['tools', 'reload', '--config', configFile]);
  assert.equal(loss.code, 1);
  assert.match(
    loss.stderr,
    /the reload would remove \d of 8 tools \(\d+ %\), more than gateway\.mcp\.reloadMaxLoss \(50 %\) allows; --force to reload anyway\n$/,
  );
  assert.equal(await generation(), 1, 'nothing changed');

  const forced = await runCli(['tools', 'reload', '--config', configFile, '--force', '--json']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal((JSON.parse(forced.stdout) as { generation: number }).generation, 2);
  assert.equal((await runCli(['tools', 'list', '--force', '--config', configFile])).code, 2);
});
