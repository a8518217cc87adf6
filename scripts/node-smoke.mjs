#!/usr/bin/env node
// Proves the Node lines `engines` names beyond the machine's own: for each version (default 22 and 24) it
// installs that Node from the npm `node` package (node@N) into a scratch folder, copies the repository's tracked files to
// an empty temporary folder, runs `npm ci` there under that Node (native modules are built against its
// own headers; an EBADENGINE warning fails the smoke), then starts both services with `toolgate start`
// on port 0, makes one MCP `tools/call` through the gateway with the printed client headers, and stops
// them with SIGTERM, which must exit 0.
// Usage: node scripts/node-smoke.mjs [22 24 ...]
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const versions = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24'];
const STEP_TIMEOUT_MS = 10 * 60_000;
const CALLS = 60;

/** Runs a command to completion, collecting its output; rejects on a non-zero exit or the timeout. */
function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} failed (${code ?? signal}):\n${out.slice(-3000)}`,
          ),
        );
    });
  });
}

/**
 * Installs the npm `node@<major>` package into `prefix` and returns its binary and the folder holding its
 * C headers (the package's platform part carries the whole distribution, include/ as well). Installed in
 * a folder of our own rather than run through npx, whose cache may prune that platform part later.
 */
async function fetchNode(major, prefix) {
  await run('npm', ['install', '--no-save', '--no-audit', '--prefix', prefix, `node@${major}`], {
    cwd: prefix,
    env: process.env,
  });
  const execPath = join(prefix, 'node_modules', 'node', 'bin', 'node');
  const distribution = join(
    prefix,
    'node_modules',
    'node',
    'node_modules',
    `node-${process.platform}-${process.arch}`,
  );
  if (!existsSync(execPath) || !existsSync(join(distribution, 'include', 'node', 'common.gypi')))
    throw new Error(`node@${major} did not install a binary and headers under ${prefix}`);
  return { execPath, nodedir: distribution };
}

function copyTrackedFiles(destination) {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(root, f)));
  for (const file of files) {
    mkdirSync(dirname(join(destination, file)), { recursive: true });
    cpSync(join(root, file), join(destination, file));
  }
}

async function rpc(url, headers, id, method, params) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.json() };
}

/** Starts `toolgate start --json`, returns the child and the summary it prints. */
function start(execPath, cwd, env) {
  const child = spawn(execPath, ['bin/toolgate.js', 'start', '--json'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume(); // the services' log lines
  const exited = new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const summary = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no summary within 60 s; stderr: ${stderr}`)),
      60_000,
    );
    // The startup summary (--json) is the one JSON line on stderr.
    child.stderr.on('data', (d) => {
      stderr += d;
      for (const line of stderr.split('\n')) {
        if (!line.startsWith('{') || !line.includes('"mcpUrl"')) continue;
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`toolgate start exited (${code}) before its summary; stderr: ${stderr}`));
    });
  });
  return { child, summary, exited, stderr: () => stderr };
}

async function smoke(major) {
  const started = Date.now();
  const scratch = mkdtempSync(join(tmpdir(), `toolgate-node${major}-`));
  const runtime = join(scratch, 'runtime');
  const work = join(scratch, 'repo');
  mkdirSync(runtime);
  try {
    const { execPath, nodedir } = await fetchNode(major, runtime);
    copyTrackedFiles(work);
    const env = {
      ...process.env,
      PATH: `${dirname(execPath)}:${process.env.PATH ?? ''}`,
      npm_config_nodedir: nodedir,
    };
    // On the command line as well: a `nodedir` in the user's .npmrc (this machine sets one for its own
    // Node) would otherwise win and build the native modules for the wrong Node.
    const install = await run('npm', ['ci', `--nodedir=${nodedir}`], {
      cwd: work,
      env,
    });
    if (/EBADENGINE/.test(install))
      throw new Error(`npm ci under Node ${major} warned EBADENGINE:\n${install}`);

    const version = (await run(execPath, ['--version'], { cwd: work, env })).trim();
    const service = start(execPath, work, {
      ...env,
      TOOLGATE_DATA_DIR: join(work, 'data'),
      TOOLGATE_GATEWAY_PORT: '0',
      TOOLGATE_PAYMENTS_PORT: '0',
      TOOLGATE_ADMIN_PORT: '0',
      TOOLGATE_LOG_LEVEL: 'warn',
    });
    let call;
    try {
      const summary = await service.summary;
      const client = summary.clientConfig.mcpServers.toolgate;
      const init = await rpc(client.url, client.headers, 1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'node-smoke', version: '1' },
      });
      if (init.status !== 200 || !init.body.result)
        throw new Error(`initialize: ${JSON.stringify(init)}`);
      // One call proves the path; more give the garbage collector work to do while the services run,
      // which is where a native module built for the wrong Node, or one that frees its objects badly
      // under this Node, brings the process down. CALLS + initialize stays under the demo key's
      // subscription quota (100 requests / 60 s), which would otherwise refuse the tail with 429.
      for (let id = 2; id < 2 + CALLS; id++) {
        call = await rpc(client.url, client.headers, id, 'tools/call', {
          name: 'getMyAccountBalance',
          arguments: {},
        });
        const items = call.body.result?.structuredContent?.items;
        if (
          call.status !== 200 ||
          call.body.result?.isError ||
          !Array.isArray(items) ||
          items.length === 0
        )
          throw new Error(`tools/call getMyAccountBalance: ${JSON.stringify(call)}`);
      }
    } finally {
      service.child.kill('SIGTERM');
    }
    const stop = await Promise.race([
      service.exited,
      new Promise((resolve) => setTimeout(() => resolve({ code: 'timeout' }), 30_000)),
    ]);
    if (stop.code !== 0) {
      service.child.kill('SIGKILL');
      throw new Error(`SIGTERM did not stop cleanly (${stop.code}); stderr: ${service.stderr()}`);
    }
    const accounts = call.body.result.structuredContent.items.length;
    console.log(
      `# node-smoke: Node ${version}: npm ci, start, ${CALLS} x tools/call getMyAccountBalance (${accounts} accounts), SIGTERM exit 0 in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

let failed = 0;
for (const major of versions) {
  try {
    await smoke(major);
  } catch (error) {
    failed++;
    console.error(
      `node-smoke: Node ${major} FAILED: ${error instanceof Error ? error.message : error}`,
    );
  }
}
process.exit(failed === 0 ? 0 : 1);
