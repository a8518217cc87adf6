// `toolgate payments engine run --until <ISO timestamp> [--json]`: runs every payment transition due up
// to that moment against the payment service's store (the one in the configuration) and prints what it
// did. Safe beside running services: each transition is claimed and committed on its own
// (src/payments/engine/executor.ts), so nothing is done twice (decision: `toolgate payments engine run`
// as a subcommand of `payments`).
import { loadConfig } from '../../config/load.js';
import { openDatabase } from '../../shared/db/open.js';
import { runMigrations } from '../../shared/db/migrations.js';
import { paymentMigrations } from '../../payments/storage/migrations.js';
import { runEngine, type EngineReport } from '../../payments/engine/executor.js';
import { RateSource } from '../../payments/usecases/rates.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import { requireStore, storeLocation } from '../store-location.js';
import type { CliContext, Command } from '../context.js';

const USAGE = `Usage: toolgate payments engine run --until <ISO timestamp> [--config FILE] [--json]

Runs every payment transition due up to --until against the payment service's store: payments reaching
their execution date (after their rail's cut-off, in its time zone) are debited and submitted (PENDING,
ISO ACSP) or rejected (FAILED, RJCT with AM04 insufficient funds, AC04 closed account …), settled ones
complete (COMPLETED, ACSC), standing orders produce their instances. Prints each transition.
Safe to run while the service (and its own engine) runs: no transition is ever done twice.

Options:
      --until TIME   ISO 8601 timestamp with a zone, e.g. 2026-12-01T17:00:00Z (required)
  -c, --config FILE  configuration file; default: $TOOLGATE_CONFIG, else built-in defaults
      --json         print the report as one JSON object
  -h, --help         show this help
`;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function textReport(report: EngineReport): string {
  const lines = report.steps.map((s) => {
    const iso = [s.isoStatus, s.isoReason].filter((c) => c !== undefined).join(' ');
    const what =
      s.action === 'INSTANCE'
        ? `instance ${s.instance ?? '?'} produced: ${s.instanceId ?? ''}`
        : `${s.from} -> ${s.to}${iso ? ` (${iso})` : ''}`;
    return `${s.at}  ${s.paymentId}  ${s.action.padEnd(8)} ${what}${s.description && s.action !== 'INSTANCE' ? `  ${s.description}` : ''}`;
  });
  lines.push(
    `${report.steps.length} transition${report.steps.length === 1 ? '' : 's'} up to ${report.until}` +
      (report.skipped > 0 ? `; ${report.skipped} left to another engine` : '') +
      (report.failures.length > 0 ? `; ${report.failures.length} failed` : '') +
      '.',
  );
  for (const f of report.failures) lines.push(`  failed ${f.paymentId}: ${f.message}`);
  return `${lines.join('\n')}\n`;
}

export const paymentsEngineCommand: Command = {
  name: 'engine',
  summary:
    'Run the payment transitions due up to a moment (toolgate payments engine run --until …).',
  usage: USAGE,
  async run(argv: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs(
      argv,
      { ...COMMON_OPTIONS, until: { type: 'string' } },
      true,
    );
    if (values.help) {
      context.stdout.write(USAGE);
      return 0;
    }
    const [sub, ...extra] = positionals;
    if (sub !== 'run') throw new UsageError('expected the subcommand "run"');
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0] ?? ''}`);
    const text = values.until;
    if (text === undefined) throw new UsageError('missing --until <ISO timestamp>');
    const until = new Date(text);
    if (!ISO_TIMESTAMP.test(text) || Number.isNaN(until.getTime()))
      throw new UsageError(
        `--until must be an ISO 8601 timestamp with a zone (e.g. 2026-12-01T17:00:00Z), not "${text}"`,
      );
    const config = loadConfig({ configPath: values.config, env: context.env });
    const location = storeLocation(config.payments.database, config.dataDir);
    requireStore(location, config.dataDir, { mayCreate: false });
    const db = await openDatabase(config.payments.database, config.dataDir);
    try {
      await runMigrations(db, 'payments', paymentMigrations);
      const rates = new RateSource(config.payments.fees.rates, (_err, file) =>
        context.stderr.write(`warning: rate file ${file} unreadable; inline rates used\n`),
      );
      const report = await runEngine(
        {
          db,
          fees: config.payments.fees,
          rates: () => rates.current(),
          batchSize: config.payments.engine.batchSize,
        },
        until,
      );
      context.stdout.write(
        values.json === true
          ? `${JSON.stringify({ ...report, store: location.summary })}\n`
          : textReport(report),
      );
      return report.failures.length > 0 ? 1 : 0;
    } finally {
      await db.close();
    }
  },
};
