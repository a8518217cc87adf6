// The `toolgate` command. main() never throws and never prints a stack trace: every failure becomes one
// line on stderr and a non-zero exit code.
import { ConfigError } from '../config/load.js';
import { StoreUnavailableError } from '../shared/db/types.js';
import { UsageError } from './args.js';
import type { CliContext, Command } from './context.js';
import { serveCommand } from './commands/serve.js';
import { keysCommand } from './commands/keys.js';
import { tokenCommand } from './commands/token.js';
import { bankDirectoryCommand } from './commands/bank-directory.js';
import { toolsCommand } from './commands/tools.js';
import { clientConfigCommand } from './commands/client-config.js';
import { adminTokenCommand } from './commands/admin-token.js';
import { withSubcommands } from './commands/subcommands.js';
import { paymentsStatusReportCommand } from './commands/payments-status-report.js';
import { packageVersion } from './version.js';
import { paymentsEngineCommand } from './commands/payments-engine.js';

const COMMANDS: readonly Command[] = [
  serveCommand({
    name: 'start',
    summary:
      'Start the gateway, the payment service and the admin plane together (the demo setup).',
    parts: ['payments', 'gateway', 'admin'],
  }),
  serveCommand({
    name: 'gateway',
    summary: 'Start the MCP tool gateway only (--workers N: one process per core).',
    parts: ['gateway'],
    workers: true,
  }),
  withSubcommands(
    serveCommand({
      name: 'payments',
      summary:
        'Start the Payment Order Service only (or: payments engine run --until …, payments status-report <id>).',
      parts: ['payments'],
    }),
    [paymentsEngineCommand, paymentsStatusReportCommand],
  ),
  serveCommand({
    name: 'admin',
    summary: 'Start the admin plane only (admin API and portal, default 127.0.0.1:8082).',
    parts: ['admin'],
  }),
  adminTokenCommand,
  keysCommand,
  tokenCommand,
  clientConfigCommand,
  bankDirectoryCommand,
  toolsCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: toolgate <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Run "toolgate <command> --help" for the options of a command; "toolgate --version" prints the version.
`;
}

export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  context: Partial<CliContext> = {},
): Promise<number> {
  const ctx: CliContext = {
    env,
    stdout: context.stdout ?? process.stdout,
    stderr: context.stderr ?? process.stderr,
    signals: context.signals ?? process,
  };
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    ctx.stdout.write(`toolgate ${packageVersion()} (Node.js ${process.versions.node})\n`);
    return 0;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    ctx.stdout.write(usage());
    return 0;
  }
  // No command is a usage error: the usage goes to stderr and the exit code is 2, as for `keys` alone.
  if (name === undefined) {
    ctx.stderr.write(usage());
    return 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    ctx.stderr.write(`toolgate: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest, ctx);
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.stderr.write(`toolgate ${name}: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof StoreUnavailableError) {
      ctx.stderr.write(`toolgate ${name}: ${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr.write(`toolgate ${name}: ${message.split('\n')[0]}\n`);
    return 1;
  }
}
