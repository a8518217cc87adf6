// Writes parsed directory records in ONE transaction: a failure (or an interruption) anywhere leaves the
// directory exactly as it was. Re-importing upserts: new keys are imported, changed ones updated,
// identical ones left alone. Every import bumps the directory version and is logged.
import { createHash } from 'node:crypto';
import type { Database, SqlExecutor, SqlValue } from '../../shared/db/types.js';
import { nameKeyOf } from './store.js';
import type { DirectoryEntry, DirectorySource, ParsedFile, SkippedRecord } from './types.js';

export interface ImportSummary {
  readonly source: DirectorySource;
  readonly total: number;
  readonly imported: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Records of this source absent from the file and deleted (`replace`); 0 otherwise. */
  readonly removed: number;
  /** True when the import replaced the synthetic sample (every source of it). */
  readonly replacedSample: boolean;
  /** Records of this source before and after the import. */
  readonly before: number;
  readonly after: number;
  readonly skipped: readonly SkippedRecord[];
}

/** Codes of refused imports (docs/errors.md); nothing was written. */
export type DirectoryImportErrorCode =
  'DIRECTORY_IMPORT_EMPTY' | 'DIRECTORY_SAMPLE_REFUSED' | 'DIRECTORY_REPLACE_REFUSED';

/** What a refused `--replace` would have done (nothing was written). */
export interface ReplaceRefusal {
  readonly source: DirectorySource;
  /** Records of the source now, and after the replacement had it gone through. */
  readonly before: number;
  readonly after: number;
  readonly removed: number;
  readonly removedPercent: number;
  readonly maxRemovedPercent: number;
  /** Lines of the file that could not be read (malformed records). */
  readonly unreadable: number;
  /** The first records that would have been removed. */
  readonly wouldRemove: readonly { readonly key: string; readonly bankName: string }[];
}

export class DirectoryImportError extends Error {
  constructor(
    readonly code: DirectoryImportErrorCode,
    message: string,
    readonly refusal?: ReplaceRefusal,
  ) {
    super(message);
    this.name = 'DirectoryImportError';
  }
}

export interface ImportOptions {
  readonly source: DirectorySource;
  /** Where the data came from (file name, "sample"), for the import log. */
  readonly origin: string;
  readonly batchSize?: number;
  /** Called after each written batch; throwing aborts and rolls the whole import back. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly now?: () => Date;
  /**
   * Swap the whole directory of this source for the file: records absent from it are deleted, in the
   * same transaction as the writes.
   */
  readonly replace?: boolean;
  /**
   * The replacement guard (docs/decisions.md, D-276): `replace` is refused when it would
   * remove more than this share of the source's records (percent; default 10) or when the file had
   * unreadable lines, unless `force`.
   */
  readonly maxRemovedPercent?: number;
  readonly force?: boolean;
  /** The synthetic sample: loaded only into an empty (or sample) directory, and marked as sample. */
  readonly sample?: boolean;
}

/** Why a parsed file yields no record, for the refusal message. */
function emptyReason(
  parsed: ParsedFile,
  skipped: readonly SkippedRecord[],
  source: string,
): string {
  if (parsed.entries.length === 0 && parsed.skipped.length === 0) {
    return `no ${source} record imported: the file has no records (empty file)`;
  }
  const first = skipped[0];
  const hint = first ? ` (line ${first.line}: ${first.reason})` : '';
  return (
    `no ${source} record imported: none of the ${skipped.length} records is valid${hint}; ` +
    `is the file in the ${source} format?`
  );
}

const COLUMNS = [
  'source',
  'entry_key',
  'country',
  'routing_number',
  'bic',
  'bic8',
  'bank_code',
  'branch_code',
  'sort_code',
  'bank_name',
  'name_key',
  'status',
  'details',
  'content_hash',
  'updated_at',
] as const;

export function contentHash(entry: DirectoryEntry): string {
  return createHash('sha256').update(JSON.stringify(entry)).digest('base64url').slice(0, 22);
}

function rowOf(entry: DirectoryEntry, hash: string, at: string): SqlValue[] {
  return [
    entry.source,
    entry.key,
    entry.country,
    entry.routingNumber ?? null,
    entry.bic ?? null,
    entry.bic ? entry.bic.slice(0, 8) : null,
    entry.bankCode ?? null,
    entry.branchCode ?? null,
    entry.sortCode ?? null,
    entry.bankName,
    nameKeyOf(entry),
    entry.status,
    JSON.stringify(entry),
    hash,
    at,
  ];
}

async function upsertBatch(tx: SqlExecutor, rows: readonly SqlValue[][]): Promise<void> {
  if (rows.length === 0) return;
  const width = COLUMNS.length;
  const values = rows
    .map((_, r) => `(${COLUMNS.map((_c, c) => `$${r * width + c + 1}`).join(', ')})`)
    .join(', ');
  const updates = COLUMNS.slice(2)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  await tx.execute(
    `INSERT INTO bank_directory (${COLUMNS.join(', ')}) VALUES ${values}
     ON CONFLICT (source, entry_key) DO UPDATE SET ${updates}`,
    rows.flat(),
  );
}

/** Records shown as "would be removed" in a refusal. */
const SHOWN_REMOVALS = 20;

/**
 * Throws DIRECTORY_REPLACE_REFUSED (inside the import's transaction, before any write) when the
 * replacement would remove more than the allowed share of the source or the file had unreadable lines.
 */
function guardReplacement(
  options: ImportOptions,
  rows: readonly { entry_key: string; bank_name: string }[],
  seen: ReadonlyMap<string, number>,
  unreadable: number,
): void {
  const limit = options.maxRemovedPercent ?? 10;
  const gone = rows.filter((r) => !seen.has(r.entry_key));
  const percent = rows.length === 0 ? 0 : (gone.length / rows.length) * 100;
  if (percent <= limit && unreadable === 0) return;
  const refusal: ReplaceRefusal = {
    source: options.source,
    before: rows.length,
    // After a replacement the source holds exactly the file's valid records.
    after: seen.size,
    removed: gone.length,
    removedPercent: Math.round(percent * 10) / 10,
    maxRemovedPercent: limit,
    unreadable,
    wouldRemove: gone
      .slice(0, SHOWN_REMOVALS)
      .map((r) => ({ key: r.entry_key, bankName: r.bank_name })),
  };
  const why = [
    ...(percent > limit
      ? [
          `it would remove ${gone.length} of ${rows.length} ${options.source} records ` +
            `(${refusal.removedPercent}% > ${limit}%)`,
        ]
      : []),
    ...(unreadable > 0
      ? [`the file has ${unreadable} unreadable line${unreadable === 1 ? '' : 's'}`]
      : []),
  ];
  throw new DirectoryImportError(
    'DIRECTORY_REPLACE_REFUSED',
    `--replace refused: ${why.join(' and ')}; nothing was changed ` +
      `(${rows.length} records before, ${refusal.after} after). Check the file, or use --force`,
    refusal,
  );
}

export async function importDirectory(
  db: Database,
  parsed: ParsedFile,
  options: ImportOptions,
): Promise<ImportSummary> {
  const skipped: SkippedRecord[] = [...parsed.skipped];
  const seen = new Map<string, number>();
  const entries: { entry: DirectoryEntry; hash: string }[] = [];
  for (const { line, entry } of parsed.entries) {
    if (entry.source !== options.source) {
      skipped.push({ line, reason: `record of source ${entry.source}, not ${options.source}` });
      continue;
    }
    const first = seen.get(entry.key);
    if (first !== undefined) {
      skipped.push({ line, reason: `duplicate of line ${first} (key ${entry.key})` });
      continue;
    }
    seen.set(entry.key, line);
    const stored = options.sample === true ? { ...entry, sample: true } : entry;
    entries.push({ entry: stored, hash: contentHash(stored) });
  }
  skipped.sort((a, b) => a.line - b.line);
  if (entries.length === 0) {
    throw new DirectoryImportError(
      'DIRECTORY_IMPORT_EMPTY',
      emptyReason(parsed, skipped, options.source),
    );
  }
  const batchSize = options.batchSize ?? 200;
  const started = (options.now ?? (() => new Date()))().toISOString();

  const counts = await db.transaction(async (tx) => {
    const meta = await tx.query<{ sample: number | string }>(
      'SELECT sample FROM bank_directory_meta WHERE id = 1',
    );
    const holdsSample = Number(meta[0]?.sample ?? 0) === 1;
    let replacedSample = false;
    if (options.sample === true && !holdsSample) {
      const n = await tx.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM bank_directory');
      if (Number(n[0]?.n ?? 0) > 0) {
        throw new DirectoryImportError(
          'DIRECTORY_SAMPLE_REFUSED',
          'the synthetic sample is loaded only into an empty directory',
        );
      }
      await tx.execute('UPDATE bank_directory_meta SET sample = 1 WHERE id = 1');
    } else if (options.sample !== true && holdsSample) {
      // Real data replaces the whole sample (every source), never mixes with it.
      await tx.execute('DELETE FROM bank_directory');
      await tx.execute('UPDATE bank_directory_meta SET sample = 0 WHERE id = 1');
      replacedSample = true;
    }
    const existing = new Map<string, string>();
    const rows = await tx.query<{ entry_key: string; content_hash: string; bank_name: string }>(
      'SELECT entry_key, content_hash, bank_name FROM bank_directory WHERE source = $1',
      [options.source],
    );
    for (const r of rows) existing.set(r.entry_key, r.content_hash);
    if (options.replace === true && options.force !== true) {
      guardReplacement(options, rows, seen, parsed.skipped.length);
    }
    let imported = 0;
    let updated = 0;
    let unchanged = 0;
    let batch: SqlValue[][] = [];
    let done = 0;
    for (const { entry, hash } of entries) {
      const before = existing.get(entry.key);
      done += 1;
      if (before === hash) {
        unchanged += 1;
      } else {
        if (before === undefined) imported += 1;
        else updated += 1;
        batch.push(rowOf(entry, hash, started));
      }
      if (batch.length >= batchSize) {
        await upsertBatch(tx, batch);
        batch = [];
        options.onProgress?.(done, entries.length);
      }
    }
    await upsertBatch(tx, batch);
    let removed = 0;
    if (options.replace === true) {
      const gone = [...existing.keys()].filter((k) => !seen.has(k));
      for (let i = 0; i < gone.length; i += batchSize) {
        const part = gone.slice(i, i + batchSize);
        await tx.execute(
          `DELETE FROM bank_directory WHERE source = $1 AND entry_key IN (${part
            .map((_, j) => `$${j + 2}`)
            .join(', ')})`,
          [options.source, ...part],
        );
      }
      removed = gone.length;
    }
    options.onProgress?.(entries.length, entries.length);
    await tx.execute('UPDATE bank_directory_meta SET version = version + 1, updated_at = $1', [
      started,
    ]);
    await tx.execute(
      `INSERT INTO bank_directory_imports
       (started_at, finished_at, source, origin, imported, updated, unchanged, skipped, removed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        started,
        new Date().toISOString(),
        options.source,
        options.origin.slice(0, 500),
        imported,
        updated,
        unchanged,
        skipped.length,
        removed,
      ],
    );
    const before = existing.size;
    return {
      imported,
      updated,
      unchanged,
      removed,
      replacedSample,
      before,
      after: before + imported - removed,
    };
  });
  return {
    source: options.source,
    total: parsed.entries.length + parsed.skipped.length,
    ...counts,
    skipped,
  };
}
