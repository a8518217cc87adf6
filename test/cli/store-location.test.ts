// Management commands and where their stores are: run from another folder they create nothing and say
// in one line where they looked; with --config a relative dataDir is the configuration file's; --json
// names the store used; `keys list` shows each subscription's quota; `keys create --tools` refuses
// names that are neither a tool nor a configured product.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_STORE_HINT } from '../../src/cli/store-location.js';
import { runCli } from '../helpers/process.js';

const emptyFolder = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

test('run from a folder without a data folder, each management command refuses in one line and creates nothing', async () => {
  const elsewhere = emptyFolder('toolgate-elsewhere-');
  const commands = [
    ['keys', 'list'],
    ['keys', 'create', '--app', 'agent', '--env', 'development'],
    ['keys', 'revoke', '--id', 'sub_x'],
    ['tools', 'list'],
    ['tools', 'approve', 'createPayment'],
    ['token', '--sub', 'alice'],
    ['client-config', '--key', 'tgk_abcdefghijklmnopqrstuvwxyz1234'],
  ];
  for (const args of commands) {
    const result = await runCli(args, {}, 20000, elsewhere);
    assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(
      result.stderr,
      `toolgate ${args[0]}: no data folder at ${join(elsewhere, 'data')}: ${NO_STORE_HINT}\n`,
    );
    assert.deepEqual(readdirSync(elsewhere), [], `${args.join(' ')} created nothing`);
  }
});

test("--config: a relative dataDir is the file's; --json names the store; keys list shows quotas; unknown --tools refused", async () => {
  const project = emptyFolder('toolgate-project-');
  const elsewhere = emptyFolder('toolgate-elsewhere-');
  mkdirSync(join(project, 'state'));
  const configFile = join(project, 'toolgate.yaml');
  writeFileSync(
    configFile,
    'dataDir: state\ngateway:\n  products:\n    payments-read: [getPayment, listPayments]\n',
  );
  const run = (args: string[]) => runCli([...args, '--config', configFile], {}, 20000, elsewhere);

  const created = await run([
    'keys',
    'create',
    '--app',
    'reader',
    '--env',
    'development',
    '--tools',
    'product:payments-read,fetchBankDetails',
    '--rate-limit',
    '30',
    '--json',
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.deepEqual((JSON.parse(created.stdout) as { store: unknown }).store, {
    kind: 'sqlite',
    path: join(project, 'state', 'gateway.db'),
  });
  assert.deepEqual(readdirSync(elsewhere), [], 'nothing in the working directory');
  assert.equal((await run(['keys', 'create', '--app', 'open', '--env', 'development'])).code, 0);

  const list = await run(['keys', 'list']);
  assert.equal(list.code, 0, list.stderr);
  const lines = list.stdout.trim().split('\n');
  assert.equal(lines.length, 2);
  assert.match(
    lines.find((l) => l.includes(' reader ')) ?? '',
    /tools=product:payments-read,fetchBankDetails {2}quota=30\/60s {2}keys: primary tgk_…\w{4}, secondary tgk_…\w{4}$/,
  );
  assert.match(
    lines.find((l) => l.includes(' open ')) ?? '',
    /tools=all {2}quota=100\/60s \(default\) {2}keys: /,
  );

  const unknown = await run([
    'keys',
    'create',
    '--app',
    'typo',
    '--env',
    'development',
    '--tools',
    'getPayment,getPaymnet,product:nope',
  ]);
  assert.equal(unknown.code, 2);
  assert.equal(
    unknown.stderr,
    'toolgate keys: --tools names unknown tool(s) or product(s): getPaymnet, product:nope (see "toolgate tools list" and gateway.products)\n',
  );
  const after = await run(['keys', 'list', '--json']);
  assert.equal(
    (JSON.parse(after.stdout) as { subscriptions: unknown[] }).subscriptions.length,
    2,
    'no subscription was created',
  );
});
