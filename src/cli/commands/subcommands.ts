// A command that also has subcommands: `toolgate payments` starts the service, `toolgate payments
// status-report …` runs the subcommand of that name. The base command's help lists the subcommands.
import type { Command } from '../context.js';

export function withSubcommands(base: Command, subcommands: readonly Command[]): Command {
  const list = subcommands.map((s) => `  toolgate ${base.name} ${s.name}  ${s.summary}`).join('\n');
  return {
    name: base.name,
    summary: base.summary,
    usage: `${base.usage}\nSubcommands (toolgate ${base.name} <subcommand> --help):\n${list}\n`,
    run(argv, context) {
      const sub = subcommands.find((s) => s.name === argv[0]);
      if (sub) return sub.run(argv.slice(1), context);
      if (argv.includes('--help') || argv.includes('-h')) {
        context.stdout.write(this.usage);
        return Promise.resolve(0);
      }
      return base.run(argv, context);
    },
  };
}
