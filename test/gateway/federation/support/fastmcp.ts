// A Python MCP server (the `mcp` package 2.3.0, FastMCP — named MCPServer since mcp 2) with Streamable
// HTTP on a free port, for the federation tests (issue 28). Its tools: `shout` (text) and `divide`
// (outputSchema, structured output); resource `note://readme`; prompt `review`. See fastmcp_server.py.
//
//   const python = pythonWithMcp();
//   if ('skip' in python) return t.skip(python.skip);
//   const upstream = await startFastMcp(python.python, { stateless: false, json: false });
//   upstream.url; upstream.output(); await upstream.close();
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../../helpers/free-port.js';
import { connects } from './port.js';

export interface FastMcp {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  close(): Promise<void>;
}

export interface FastMcpOptions {
  /** No sessions (the SDK's stateless_http). */
  readonly stateless?: boolean;
  /** application/json answers instead of SSE streams (the SDK's json_response). */
  readonly json?: boolean;
}

/** The server script, beside this module's source (tests run from the checkout's root). */
export const FASTMCP_SCRIPT = join(
  process.cwd(),
  'test',
  'gateway',
  'federation',
  'support',
  'fastmcp_server.py',
);

export async function startFastMcp(
  python: string,
  options: FastMcpOptions = {},
  timeoutMs = 30_000,
): Promise<FastMcp> {
  const port = await freePort();
  const args = [FASTMCP_SCRIPT, String(port)];
  if (options.stateless === true) args.push('--stateless');
  if (options.json === true) args.push('--json');
  const child = spawn(python, args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PYTHONUNBUFFERED: '1' },
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
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  // Ready when its port accepts a connection (uvicorn binds once the app has started).
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `the Python MCP server exited with ${child.exitCode}:\n${output.slice(-2000)}`,
      );
    try {
      await connects(port);
      break;
    } catch {
      if (Date.now() > deadline) {
        await close();
        throw new Error(
          `the Python MCP server did not listen within ${timeoutMs} ms:\n${output.slice(-2000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  return { url, child, output: () => output, close };
}
