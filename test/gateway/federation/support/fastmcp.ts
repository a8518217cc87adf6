// A Python MCP server (the `mcp` package 2.3.0, FastMCP — named MCPServer since mcp 2) with Streamable
// HTTP on a free port, for the federation tests (issue 28). Its tools: `shout` (text) and `divide`
// (outputSchema, structured output); resource `note://readme`; prompt `review`. See fastmcp_server.py.
//
//   const python = pythonWithMcp();
//   if ('skip' in python) return t.skip(python.skip);
//   const upstream = await startFastMcp(python.python, { stateless: false, json: false });
//   upstream.url; upstream.output(); await upstream.close();
import { join } from 'node:path';
import { freePort } from '../../../helpers/free-port.js';
import { startChildServer, type ChildServer } from './port.js';

export type FastMcp = ChildServer;

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
  // Ready when its port accepts a connection (uvicorn binds once the app has started).
  return startChildServer({
    name: 'the Python MCP server',
    command: python,
    args,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PYTHONUNBUFFERED: '1' },
    port,
    timeoutMs,
    killGraceMs: 3000,
    pollMs: 150,
  });
}
