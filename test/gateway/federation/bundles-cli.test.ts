// `toolgate keys create --bundles` (issue 28: "Subscriptions can be limited to bundles"): the limit is
// stored and shown by `keys list`; a name no configured bundle has is refused before anything is created.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/process.js';

test('keys create --bundles limits the subscription to configured bundles; unknown names refused', async () => {
  const project = mkdtempSync(join(tmpdir(), 'toolgate-bundles-cli-'));
  mkdirSync(join(project, 'data'));
  const configFile = join(project, 'toolgate.yaml');
  writeFileSync(
    configFile,
    'dataDir: data\ngateway:\n  bundles:\n    payments:\n      tools: [getPayment]\n    support:\n      tools: [fetchBankDetails]\n',
  );
  const run = (args: string[]) => runCli([...args, '--config', configFile], {}, 60000, project);

  const created = await run([
    'keys',
    'create',
    '--app',
    'payments-agent',
    '--env',
    'development',
    '--bundles',
    'payments',
    '--json',
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.deepEqual((JSON.parse(created.stdout) as { bundles: unknown }).bundles, ['payments']);

  const unknown = await run([
    'keys',
    'create',
    '--app',
    'x',
    '--env',
    'development',
    '--bundles',
    'payments,nope',
  ]);
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(
    unknown.stderr,
    /--bundles names unknown tool bundle\(s\): nope \(configured: payments, support; see gateway\.bundles\)/,
  );
  const empty = await run([
    'keys',
    'create',
    '--app',
    'x',
    '--env',
    'development',
    '--bundles',
    ',',
  ]);
  assert.match(empty.stderr, /--bundles needs at least one bundle name/);

  const list = await run(['keys', 'list']);
  assert.equal(list.code, 0, list.stderr);
  const lines = list.stdout.trim().split('\n');
  assert.equal(lines.length, 1, 'the refused commands created nothing');
  assert.match(lines[0] ?? '', / payments-agent .* tools=all {2}bundles=payments {2}quota=/);
});
