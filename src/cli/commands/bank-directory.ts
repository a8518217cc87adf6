// `toolgate bank-directory import FILE --format fedach|fedwire|csv`: loads a bank directory file into the
// payment service's database in one transaction (all-or-nothing), with a progress bar on a terminal and
// a summary of imported / updated / unchanged / skipped records (with line numbers and reasons).
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../config/load.js';
import { openDatabase } from '../../shared/db/open.js';
import { runMigrations } from '../../shared/db/migrations.js';
import { directoryMigrations } from '../../payments/directory/migrations.js';
import {
  DirectoryImportError,
  importDirectory,
  type ImportSummary,
  type ReplaceRefusal,
} from '../../payments/directory/import.js';
import { parseFedach } from '../../payments/directory/importers/fedach.js';
import { parseFedwire } from '../../payments/directory/importers/fedwire.js';
import { parseBankCsv } from '../../payments/directory/importers/csv.js';
import {
  decodeBundesbank,
  parseBundesbank,
} from '../../payments/directory/importers/bundesbank.js';
import { parseGleif } from '../../payments/directory/importers/gleif.js';
import type { DirectorySource, ParsedFile } from '../../payments/directory/types.js';
import { COMMON_OPTIONS, UsageError, parseCommandArgs } from '../args.js';
import { requireStore, storeLocation } from '../store-location.js';
import type { CliContext, Command, Output } from '../context.js';

const PARSERS: Record<Exclude<DirectorySource, 'gleif'>, (text: string) => ParsedFile> = {
  fedach: parseFedach,
  fedwire: parseFedwire,
  csv: parseBankCsv,
  bundesbank: parseBundesbank,
};

const SHOWN_SKIPS = 50;

const USAGE = `Usage: toolgate bank-directory import FILE --format fedach|fedwire|csv|bundesbank|gleif [--lei-records FILE] [--replace [--force]] [--config FILE] [--json]

Imports a bank directory file into the payment service's database (the one in the configuration).
The import is one transaction: when anything fails, the directory stays exactly as it was.
Records already present are updated when they changed; malformed records are skipped and listed.
A file that yields no record (empty, or in another format) is refused: exit 1 with the reason.
Real data always replaces the synthetic sample; it is never mixed with it.

Formats (docs/bank-directory.md):
  fedach   FedACH participant directory, fixed width, 155 characters a record
  fedwire  Fedwire participant directory, fixed width, 101 characters a record
  csv      toolgate's CSV (header row) or JSON (array of objects) for BIC / bank / branch / sort codes
  bundesbank  Deutsche Bundesbank bank code file (Bankleitzahlendatei), 168 or 174 characters a
           record, ISO 8859-1: bank code -> BIC, name, town (German IBANs resolve to their bank)
  gleif    GLEIF BIC-to-LEI relationship file (CSV: LEI,BIC) with --lei-records, LEI records in the
           GLEIF Golden Copy CSV layout: BIC -> legal name and address
(fedach and fedwire also read the Federal Reserve's JSON form of the files.)

Options:
  -f, --format FORMAT  fedach, fedwire, csv, bundesbank or gleif (required)
      --lei-records FILE  with --format gleif: the LEI records (Golden Copy CSV) to join
      --replace        the file is the whole directory of its format: records absent from it are
                       deleted, in the same transaction (all-or-nothing). Refused (exit 1,
                       nothing changed) when it would remove more than
                       payments.directory.replaceMaxRemovedPercent (default 10%) of the
                       source's records or the file has unreadable lines; the counts before
                       and after and the records it would remove are printed
      --force          with --replace: replace even then
  -c, --config FILE    configuration file; default: $TOOLGATE_CONFIG, else built-in defaults
      --json           print the summary as one JSON object
  -h, --help           show this help
`;

function isTerminal(out: Output): boolean {
  return (out as { isTTY?: boolean }).isTTY === true;
}

function progressBar(out: Output): (done: number, total: number) => void {
  let last = -1;
  return (done, total) => {
    const pct = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (pct === last) return;
    last = pct;
    const filled = Math.round(pct / 4);
    out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(25 - filled)}] ${pct}% ${done}/${total}`);
  };
}

function refusalText(r: ReplaceRefusal): string {
  const lines = [
    `  ${r.source} records: ${r.before} before, ${r.after} after the replacement; ` +
      `${r.removed} would be removed (${r.removedPercent}%, limit ${r.maxRemovedPercent}%), ` +
      `${r.unreadable} unreadable line${r.unreadable === 1 ? '' : 's'} in the file`,
    ...r.wouldRemove.map((w) => `  would remove ${w.key} ${w.bankName}`),
  ];
  if (r.removed > r.wouldRemove.length) {
    lines.push(`  … and ${r.removed - r.wouldRemove.length} more`);
  }
  return `${lines.join('\n')}\n`;
}

function textSummary(file: string, s: ImportSummary): string {
  const lines = [
    `Imported ${file} (${s.source}): ${s.imported} imported, ${s.updated} updated, ` +
      `${s.unchanged} unchanged, ${s.skipped.length} skipped of ${s.total} records` +
      `${s.removed > 0 ? `; ${s.removed} removed (not in the file)` : ''}.`,
    `  ${s.source} records: ${s.before} before, ${s.after} after`,
  ];
  if (s.replacedSample) lines.push('  the synthetic sample directory was replaced by this data');
  for (const skip of s.skipped.slice(0, SHOWN_SKIPS)) {
    lines.push(`  skipped line ${skip.line}: ${skip.reason}`);
  }
  if (s.skipped.length > SHOWN_SKIPS) {
    lines.push(`  … and ${s.skipped.length - SHOWN_SKIPS} more skipped (use --json for all)`);
  }
  return `${lines.join('\n')}\n`;
}

export const bankDirectoryCommand: Command = {
  name: 'bank-directory',
  summary: 'Import FedACH, Fedwire or CSV/JSON bank directory files.',
  usage: USAGE,
  async run(argv: readonly string[], context: CliContext): Promise<number> {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        ...COMMON_OPTIONS,
        format: { type: 'string', short: 'f' },
        replace: { type: 'boolean' },
        force: { type: 'boolean' },
        'lei-records': { type: 'string' },
      },
      true,
    );
    if (values.help) {
      context.stdout.write(USAGE);
      return 0;
    }
    const [sub, file, ...extra] = positionals;
    if (sub !== 'import') throw new UsageError('expected the subcommand "import"');
    if (file === undefined) throw new UsageError('missing FILE to import');
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0] ?? ''}`);
    const format = values.format;
    if (
      format !== 'fedach' &&
      format !== 'fedwire' &&
      format !== 'csv' &&
      format !== 'bundesbank' &&
      format !== 'gleif'
    ) {
      throw new UsageError('--format must be fedach, fedwire, csv, bundesbank or gleif');
    }
    if (values.force === true && values.replace !== true) {
      throw new UsageError('--force goes with --replace');
    }
    const leiFile = values['lei-records'];
    if ((format === 'gleif') !== (leiFile !== undefined)) {
      throw new UsageError('--lei-records FILE goes with --format gleif, and only with it');
    }
    const read = (name: string, decode: (bytes: Buffer) => string): string => {
      try {
        return decode(readFileSync(name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new Error(
          `cannot read ${name}: ${code === 'ENOENT' ? 'file not found' : 'unreadable'}`,
        );
      }
    };
    const utf8 = (bytes: Buffer) => bytes.toString('utf8');
    const leiText = leiFile === undefined ? '' : read(leiFile, utf8);
    const text = read(file, format === 'bundesbank' ? decodeBundesbank : utf8);
    const parsed = format === 'gleif' ? parseGleif(text, leiText) : PARSERS[format](text);
    const config = loadConfig({ configPath: values.config, env: context.env });
    const location = storeLocation(config.payments.database, config.dataDir);
    requireStore(location, config.dataDir, { mayCreate: true });
    const db = await openDatabase(config.payments.database, config.dataDir);
    const tty = isTerminal(context.stderr) && values.json !== true;
    try {
      await runMigrations(db, 'bank-directory', directoryMigrations);
      const summary = await importDirectory(db, parsed, {
        source: format,
        origin: file,
        batchSize: config.payments.bankLookup.importBatchSize,
        replace: values.replace === true,
        force: values.force === true,
        maxRemovedPercent: config.payments.directory.replaceMaxRemovedPercent,
        ...(tty ? { onProgress: progressBar(context.stderr) } : {}),
      });
      if (tty) context.stderr.write('\n');
      context.stdout.write(
        values.json === true
          ? `${JSON.stringify({ file, ...summary, store: location.summary })}\n`
          : textSummary(file, summary),
      );
      return 0;
    } catch (error) {
      // Refusals name their code (docs/errors.md); nothing was written.
      if (error instanceof DirectoryImportError) {
        if (error.refusal !== undefined) {
          if (values.json === true) {
            context.stdout.write(
              `${JSON.stringify({ file, refused: error.code, ...error.refusal })}\n`,
            );
          }
          context.stderr.write(`toolgate bank-directory: ${error.code}: ${error.message}\n`);
          context.stderr.write(refusalText(error.refusal));
          return 1;
        }
        throw new Error(`${error.code}: ${error.message}`);
      }
      throw error;
    } finally {
      await db.close();
    }
  },
};
