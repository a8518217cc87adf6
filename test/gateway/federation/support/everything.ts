// The MCP reference server `@modelcontextprotocol/server-everything` (2026.8.31, a devDependency) in its
// Streamable HTTP mode, as a child process on a free port, for the federation tests (issue 28). Its
// package starts it with `node dist/index.js streamableHttp` and reads the port from PORT; it serves
// POST/GET/DELETE /mcp with sessions (Mcp-Session-Id; 400 for an unknown one) and answers as SSE streams.
//
//   const everything = await startEverything();
//   everything.url        // http://127.0.0.1:PORT/mcp
//   everything.output()   // what it printed so far (for failure messages)
//   await everything.close()   // SIGTERM, then SIGKILL after 2 s
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from '../../../helpers/free-port.js';
import { startChildServer, type ChildServer } from './port.js';

export type Everything = ChildServer;

/** The package's entry point, found through Node's resolution (its package.json `bin`). */
export function everythingEntry(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@modelcontextprotocol/server-everything/package.json');
  return join(dirname(manifest), 'dist', 'index.js');
}

export function startEverything(timeoutMs = 20_000): Promise<Everything> {
  return freePort().then((port) =>
    startChildServer({
      name: 'server-everything',
      command: process.execPath,
      args: [everythingEntry(), 'streamableHttp'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port) },
      port,
      timeoutMs,
      killGraceMs: 2000,
      pollMs: 100,
    }),
  );
}
