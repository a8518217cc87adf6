// The MCP reference server `@modelcontextprotocol/server-everything` (2026.8.31, a devDependency) in its
// Streamable HTTP mode, as a child process on a free port, for the federation tests (issue 28). Its
// package starts it with `node dist/index.js streamableHttp` and reads the port from PORT; it serves
// POST/GET/DELETE /mcp with sessions (Mcp-Session-Id; 400 for an unknown one) and answers as SSE streams.
//
//   const everything = await startEverything();
//   everything.url        // http://127.0.0.1:PORT/mcp
//   everything.output()   // what it printed so far (for failure messages)
//   await everything.close()   // SIGTERM, then SIGKILL after 2 s
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '../../../helpers/free-port.js';
import { connects } from './port.js';

export interface Everything {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  close(): Promise<void>;
}

/** The package's entry point, found through Node's resolution (its package.json `bin`). */
export function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
  return join(dirname(manifest), 'dist', 'index.js');
}

export async function startEverything(timeoutMs = 20_000): Promise<Everything> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingEntry(), 'streamableHttp'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}/mcp`;
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  };
  // Ready when its port accepts a connection (it listens only once its app is built).
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`server-everything exited with ${child.exitCode}:\n${output.slice(-2000)}`);
    try {
      await connects(port);
      break;
    } catch {
      if (Date.now() > deadline) {
        await close();
        throw new Error(
          `server-everything did not listen within ${timeoutMs} ms:\n${output.slice(-2000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, child, output: () => output, close };
}
