// Issue 27, traps 7 ("Node") and 8 ("CLI"): what a newcomer meets first on the command line — the version,
// a command without its action, a port that is taken, and a Node.js that is too old.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { BIN, finished, runCli } from '../helpers/process.js';

const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
};

test('issue 27 trap 8: toolgate --version prints the package version and exits 0', async () => {
  const result = await runCli(['--version']);
  assert.equal(result.code, 0);
  assert.equal(result.stdout, `toolgate ${manifest.version} (Node.js ${process.versions.node})\n`);
  assert.equal(result.stderr, '');
});

test('issue 27 trap 8: toolgate keys without an action prints the usage on stderr and exits 2', async () => {
  const result = await runCli(['keys']);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^Usage: toolgate keys <action>/);
  // Asked for, the help is output, not an error.
  const help = await runCli(['keys', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: toolgate keys <action>/);
});

test('issue 27 trap 8: admin-token without an action and toolgate alone are usage errors too', async () => {
  for (const args of [['admin-token'], []]) {
    const result = await runCli(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^Usage: toolgate /);
  }
});

test('issue 27 trap 8: a port in use is one line naming the variable and the key that move it', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.after(() => holder.close());
  const address = holder.address();
  assert.ok(address !== null && typeof address === 'object');
  const result = await runCli(['payments'], {
    TOOLGATE_PAYMENTS_PORT: String(address.port),
    TOOLGATE_DATA_DIR: join(mkdtempSync(join(tmpdir(), 'toolgate-port-')), 'data'),
    TOOLGATE_LOG_LEVEL: 'silent',
  });
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `toolgate payments: port ${address.port} on 127.0.0.1 is already in use (the payments listener): ` +
      `stop what holds it, or move the payments listener with TOOLGATE_PAYMENTS_PORT=<port> ` +
      `(or payments.port in the configuration file; 0 picks a free port)\n`,
  );
});

/** Runs bin/toolgate.js under a Node.js that reports `version` (process.versions.node replaced first). */
async function runAsNode(version: string, args: readonly string[]) {
  const pretend = `Object.defineProperty(process,"versions",{value:{...process.versions,node:${JSON.stringify(version)}}})`;
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, BIN, ...args],
    { env: { PATH: process.env.PATH, HOME: process.env.HOME }, stdio: ['ignore', 'pipe', 'pipe'] },
  ) as ReturnType<typeof spawn> & { output: { stdout: string; stderr: string } };
  child.output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (c: Buffer) => (child.output.stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (child.output.stderr += c.toString()));
  return finished(child, 20000);
}

test('issue 27 trap 7: an unsupported Node.js gets one line naming the versions that work, no stack trace', async () => {
  for (const version of ['18.20.4', '20.14.0', '21.7.3', '22.12.0', '23.11.0']) {
    const result = await runAsNode(version, ['--version']);
    assert.equal(result.code, 1, version);
    assert.equal(result.stdout, '');
    const lines = result.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', new RegExp(`^toolgate: Node\\.js ${version} is not supported`));
    assert.match(lines[0] ?? '', /Node\.js 22 \(22\.13 or later, recommended\)/);
    assert.ok((lines[0] ?? '').includes(manifest.engines.node), 'names the engines range');
    assert.doesNotMatch(result.stderr, /SyntaxError|crc32|at /);
  }
});

test('issue 27 trap 7: the lines package.json engines names start (20.19+, 22.13+, 24+)', async () => {
  for (const version of ['20.19.0', '22.13.0', '24.0.0', '26.1.0']) {
    const result = await runAsNode(version, ['--version']);
    assert.equal(result.code, 0, `${version}: ${result.stderr}`);
    assert.equal(result.stdout, `toolgate ${manifest.version} (Node.js ${version})\n`);
  }
});
