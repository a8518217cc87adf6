// The MCP Inspector's command line (`mcp-inspector --cli`, run by npx on Node 22) for end-to-end tests.
import { spawn } from 'node:child_process';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

export interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `mcp-inspector --cli --config <file> --server toolgate <args>`, as the README shows it. */
export function inspector(
  configFile: string,
  args: readonly string[],
  cwd: string,
): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      [
        '-y',
        '-p',
        'node@22',
        '-p',
        INSPECTOR,
        '--',
        'mcp-inspector',
        '--cli',
        '--config',
        configFile,
        '--server',
        'toolgate',
        ...args,
      ],
      // The machine has no OS keychain; the Inspector keeps its (unused) secrets in memory.
      { cwd, env: { ...process.env, MCP_INSPECTOR_SECRET_STORE: 'memory' } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
