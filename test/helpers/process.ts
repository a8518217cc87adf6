// Runs the real `toolgate` binary as a child process, for tests of the command line and of startup and
// shutdown as a user sees them.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';

export const BIN = join(process.cwd(), 'bin', 'toolgate.js');

export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 20000,
  cwd = process.cwd(),
): Promise<Finished> {
  const child = spawnCli(args, env, cwd);
  return finished(child, timeoutMs);
}

export function spawnCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  cwd = process.cwd(),
): ChildProcess & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    // The admin listener (part of `start`) binds any free port unless a test says otherwise: tests never
    // listen on the default 8082.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TOOLGATE_ADMIN_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: { stdout: string; stderr: string } };
  child.output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (c: Buffer) => (child.output.stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (child.output.stderr += c.toString()));
  return child;
}

export function finished(
  child: ChildProcess & { output: { stdout: string; stderr: string } },
  timeoutMs: number,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      setImmediate(() =>
        resolve({ code: child.exitCode, signal: child.signalCode, ...child.output }),
      );
      return;
    }
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`process did not exit within ${timeoutMs} ms; stderr: ${child.output.stderr}`),
      );
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // Let the pipes drain.
      setImmediate(() => resolve({ code, signal, ...child.output }));
    });
  });
}

/** Waits until the child prints its JSON startup summary (from `--json`) on stderr. */
export function waitForSummary(
  child: ChildProcess & { output: { stdout: string; stderr: string } },
  timeoutMs = 60000,
): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(
      () => reject(new Error(`no startup summary; stderr: ${child.output.stderr}`)),
      timeoutMs,
    );
    const check = () => {
      const line = child.output.stderr
        .split('\n')
        .find((l) => l.startsWith('{') && l.includes('Url'));
      if (line) {
        clearTimeout(deadline);
        child.stderr?.off('data', check);
        resolve(JSON.parse(line) as Record<string, string>);
      }
    };
    child.stderr?.on('data', check);
    child.on('exit', () => {
      clearTimeout(deadline);
      reject(new Error(`exited before starting; stderr: ${child.output.stderr}`));
    });
    check();
  });
}

/** The `mcpServers.toolgate` entry `toolgate start` prints: the MCP URL and the headers to send. */
export interface PrintedServer {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** What `demoForFile` fills in once the demo is up (read it inside tests, not at load time). */
export interface RunningDemo {
  /** The scratch folder; the demo's data folder is `data` inside it. */
  scratch: string;
  /** The environment the demo was started with. */
  env: NodeJS.ProcessEnv;
  printed: PrintedServer;
  /** The whole `--json` startup summary. */
  summary: Record<string, unknown>;
}

/**
 * `toolgate start --json` as a user runs it (both services on free ports, warn logs, a scratch data
 * folder), started before the file's tests and stopped after them with exit code 0 asserted.
 * `extraEnv(scratch)` adds variables (a configuration file written into the scratch folder, say).
 */
export function demoForFile(
  prefix: string,
  extraEnv: (scratch: string) => NodeJS.ProcessEnv = () => ({}),
): RunningDemo {
  const demo: RunningDemo = {
    scratch: '',
    env: {},
    printed: { url: '', headers: {} },
    summary: {},
  };
  let child: ReturnType<typeof spawnCli> | undefined;
  before(async () => {
    demo.scratch = mkdtempSync(join(tmpdir(), prefix));
    demo.env = {
      TOOLGATE_DATA_DIR: join(demo.scratch, 'data'),
      TOOLGATE_GATEWAY_PORT: '0',
      TOOLGATE_PAYMENTS_PORT: '0',
      TOOLGATE_LOG_LEVEL: 'warn',
      ...extraEnv(demo.scratch),
    };
    child = spawnCli(['start', '--json'], demo.env);
    demo.summary = await waitForSummary(child);
    const clientConfig = demo.summary.clientConfig as unknown as {
      mcpServers: { toolgate: PrintedServer };
    };
    demo.printed = clientConfig.mcpServers.toolgate;
  });
  after(async () => {
    if (child === undefined) return;
    child.kill('SIGTERM');
    const stopped = await finished(child, 15000);
    assert.equal(stopped.code, 0, stopped.stderr.slice(-500));
  });
  return demo;
}
