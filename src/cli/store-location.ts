// Where a management command's store is, and the rule that such a command never creates a data folder
// by accident: run from the wrong folder, it says where it looked instead of starting an empty store.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { DatabaseConfig } from '../config/schema.js';
import { maskUrlPassword } from '../shared/log/mask.js';
import { StoreUnavailableError } from '../shared/db/types.js';

export const NO_STORE_HINT =
  'nothing was created; start toolgate once with this configuration, or give --config FILE (a relative dataDir is taken from its folder) or TOOLGATE_DATA_DIR';

export interface StoreLocation {
  /** For `--json` output: `{ kind: 'sqlite', path }` or `{ kind: 'postgresql', url, schema }`. */
  readonly summary: Readonly<Record<string, string>>;
  /** The SQLite file (absolute), when the store is one. */
  readonly sqliteFile?: string;
}

export function storeLocation(database: Readonly<DatabaseConfig>, dataDir: string): StoreLocation {
  if (database.url !== undefined)
    return {
      summary: {
        kind: 'postgresql',
        url: maskUrlPassword(database.url),
        schema: database.schema,
      },
    };
  const file = isAbsolute(database.sqlitePath)
    ? database.sqlitePath
    : resolve(dataDir, database.sqlitePath);
  return { summary: { kind: 'sqlite', path: file }, sqliteFile: file };
}

/**
 * Refuses, in one line naming the place looked in, when the store is missing. A command that only reads
 * or changes existing records (`mayCreate: false`) needs the SQLite file; one that may start a store
 * (`keys create`, `bank-directory import`) needs at least the data folder, which no command creates.
 * PostgreSQL stores are not checked here: connecting says whether they are there.
 */
export function requireStore(
  location: StoreLocation,
  dataDir: string,
  options: { readonly mayCreate: boolean },
): void {
  const file = location.sqliteFile;
  if (file === undefined || existsSync(file)) return;
  requireDataFolder(dataDir);
  if (!options.mayCreate) throw new StoreUnavailableError(`no store at ${file}: ${NO_STORE_HINT}`);
}

/** Refuses when the data folder itself is missing (for commands that keep files there, like `token`). */
export function requireDataFolder(dataDir: string): void {
  const folder = resolve(dataDir);
  if (!existsSync(folder))
    throw new StoreUnavailableError(`no data folder at ${folder}: ${NO_STORE_HINT}`);
}
