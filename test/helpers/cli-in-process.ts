// Runs the `toolgate` command in this process (src/cli/main.ts) with its output collected: for tests of
// a command's output and exit code that need no child process.
import { main } from '../../src/cli/main.js';

class Sink {
  text = '';
  constructor(readonly isTTY = false) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `toolgate <args>` with `env` as its environment; `tty` makes stderr look like a terminal. */
export async function runMain(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { readonly tty?: boolean } = {},
): Promise<CliRun> {
  const stdout = new Sink();
  const stderr = new Sink(options.tty ?? false);
  const code = await main(args, env, { stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
