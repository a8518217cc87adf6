// The command line as a user meets it: help texts, configuration errors, exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/process.js';

for (const command of ['start', 'gateway', 'payments']) {
  test(`toolgate ${command} --help prints usage with --config and exits 0`, async () => {
    const result = await runCli([command, '--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, new RegExp(`^Usage: toolgate ${command} \\[--config FILE\\]`));
    assert.match(result.stdout, /--config FILE/);
  });
}

test('toolgate --help lists the commands', async () => {
  const result = await runCli(['--help']);
  assert.equal(result.code, 0);
  for (const command of ['start', 'gateway', 'payments'])
    assert.match(result.stdout, new RegExp(`\\n  ${command} `));
});

test('an unknown command or flag is a usage error with exit code 2', async () => {
  const unknown = await runCli(['frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  const badFlag = await runCli(['gateway', '--no-such-flag']);
  assert.equal(badFlag.code, 2);
  assert.match(badFlag.stderr, /^toolgate gateway: Unknown option '--no-such-flag'/);
});

test('an invalid configuration file fails fast: one readable line, non-zero exit, no stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-cli-'));
  const file = join(dir, 'bad.yaml');
  writeFileSync(file, 'gateway:\n  port: 99999\n');
  const result = await runCli(['start', '--config', file], { TOOLGATE_DATA_DIR: dir });
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    'toolgate start: invalid configuration: gateway.port: 99999 is invalid: must be <= 65535\n',
  );
  assert.equal(result.stdout, '');
});

test('TOOLGATE_CONFIG names the file when --config is absent', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-cli-'));
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify({ logging: { level: 'chatty' } }));
  const result = await runCli(['payments'], { TOOLGATE_CONFIG: file });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /logging\.level: "chatty" is invalid: expected one of/);
  assert.equal(result.stderr.split('\n').filter(Boolean).length, 1);
});

test('an unreachable database at startup names the target with the password masked', async () => {
  const result = await runCli(['payments'], {
    DATABASE_URL: 'postgres://svc:pa55word-secret@127.0.0.1:1/db',
    TOOLGATE_PAYMENTS_PORT: '0',
  });
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^toolgate payments: cannot connect to PostgreSQL at postgres:\/\/svc:%E2%80%A6@127\.0\.0\.1:1\/db/,
  );
  assert.equal(result.stderr.includes('pa55word-secret'), false);
  assert.equal(result.stderr.split('\n').filter(Boolean).length, 1);
});
