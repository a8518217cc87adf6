// Thin wrapper over node:util parseArgs that turns its errors into one readable line.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(
  argv: readonly string[],
  options: O,
  positionals = false,
) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: positionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new UsageError(message ?? 'invalid arguments');
  }
}

export const COMMON_OPTIONS = {
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
} as const satisfies Options;
