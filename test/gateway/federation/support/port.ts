// Whether a loopback port accepts a TCP connection now: how the upstream fixtures wait for a child
// process to listen (an HTTP probe could open an SSE stream that never ends); and the child-process
// upstreams started and stopped that way (server-everything, the Python server).
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

export function connects(port: number, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('connect timed out')));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** A server running as a child process, listening on a loopback port of its own. */
export interface ChildServer {
  /** Its MCP endpoint: http://127.0.0.1:PORT/mcp. */
  readonly url: string;
  readonly child: ChildProcess;
  /** What it printed so far (for failure messages). */
  output(): string;
  /** SIGTERM, then SIGKILL after `killGraceMs`. */
  close(): Promise<void>;
}

export interface ChildServerOptions {
  /** Named in failure messages. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The port it was told to listen on. */
  readonly port: number;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly pollMs: number;
}

/**
 * Starts the child and waits until its port accepts a connection (it listens only once it is ready), or
 * fails with what it printed when it exits or does not listen in time.
 */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const child = spawn(options.command, [...options.args], {
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), options.killGraceMs);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${options.name} exited with ${child.exitCode}:\n${output.slice(-2000)}`);
    try {
      await connects(options.port);
      break;
    } catch {
      if (Date.now() > deadline) {
        await close();
        throw new Error(
          `${options.name} did not listen within ${options.timeoutMs} ms:\n${output.slice(-2000)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollMs));
    }
  }
  return { url: `http://127.0.0.1:${options.port}/mcp`, child, output: () => output, close };
}
