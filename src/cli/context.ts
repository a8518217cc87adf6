// What every command receives: the process environment (read only here and in config), and the two
// output streams so tests can capture them.
import type { Environment } from '../config/load.js';

export interface Output {
  write(text: string): unknown;
}

export interface CliContext {
  readonly env: Environment;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly signals: { once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown };
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(argv: readonly string[], context: CliContext): Promise<number>;
}
