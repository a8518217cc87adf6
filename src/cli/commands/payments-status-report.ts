// `toolgate payments status-report <payment id> [--xml]`: the pain.002 customer payment status report of one
// payment, read from the payment service's database (the one in the configuration), printed as JSON or
// as ISO 20022 XML (pain.002.001.10) on stdout — an operator's export (docs/payments-notifications.md).
import { loadConfig } from '../../config/load.js';
import { openDatabase } from '../../shared/db/open.js';
import { runMigrations } from '../../shared/db/migrations.js';
import { paymentMigrations } from '../../payments/storage/migrations.js';
import { PaymentError } from '../../payments/domain/errors.js';
import { paymentStatusReport, statusReportXml } from '../../payments/usecases/status-report.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import { requireStore, storeLocation } from '../store-location.js';
import type { CliContext, Command } from '../context.js';

const USAGE = `Usage: toolgate payments status-report <payment id> [--xml] [--config FILE]

Prints the ISO 20022 customer payment status report (pain.002) of one payment, any owner's: the
transaction status (ACCP, ACSP, ACSC, PDNG, RJCT, CANC), its reason, the acceptance time, the original
references and, in JSON, the status history. Reads the payment service's database of the configuration.

Options:
      --xml            print the pain.002.001.10 XML document instead of JSON
  -c, --config FILE    configuration file; default: $TOOLGATE_CONFIG, else built-in defaults
  -h, --help           show this help

Exit codes: 0 printed, 1 no such payment or no store, 2 usage error.
`;

export const paymentsStatusReportCommand: Command = {
  name: 'status-report',
  summary: 'Print the pain.002 status report of a payment (JSON, or XML with --xml).',
  usage: USAGE,
  async run(argv: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs(
      argv,
      { config: COMMON_OPTIONS.config, help: COMMON_OPTIONS.help, xml: { type: 'boolean' } },
      true,
    );
    if (values.help) {
      context.stdout.write(USAGE);
      return 0;
    }
    const [id, ...extra] = positionals;
    if (id === undefined)
      throw new UsageError('give the payment id (toolgate payments status-report <id>)');
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0] ?? ''}"`);
    const config = loadConfig({ configPath: values.config, env: context.env });
    requireStore(storeLocation(config.payments.database, config.dataDir), config.dataDir, {
      mayCreate: false,
    });
    const db = await openDatabase(config.payments.database, config.dataDir);
    try {
      await runMigrations(db, 'payments', paymentMigrations);
      const report = await paymentStatusReport(db, id, new Date());
      context.stdout.write(
        values.xml === true ? statusReportXml(report) : `${JSON.stringify(report, null, 2)}\n`,
      );
      return 0;
    } catch (error) {
      if (error instanceof PaymentError) throw new Error(`${error.code}: ${error.message}`);
      throw error;
    } finally {
      await db.close();
    }
  },
};
