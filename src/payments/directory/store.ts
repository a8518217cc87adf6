// Reads of the bank directory: one indexed query per look-up kind, plus an in-memory name index that is
// rebuilt only when the directory's version (bumped by every import) changes.
import type { Database, SqlValue } from '../../shared/db/types.js';
import { normaliseName } from './jaro-winkler.js';
import type { DirectoryEntry } from './types.js';

interface EntryRow {
  details: string;
  [column: string]: unknown;
}

/** Entries sharing one normalised name (branches of one bank): scored once per search. */
export interface NameGroup {
  readonly nameKey: string;
  readonly items: readonly NameIndexItem[];
}

export interface NameIndexItem {
  readonly source: string;
  readonly key: string;
  readonly country: string;
  readonly nameKey: string;
}

const SELECT = 'SELECT details FROM bank_directory';
const LIMIT = 200;

export class DirectoryStore {
  private nameIndex:
    { version: number; items: readonly NameIndexItem[]; groups: readonly NameGroup[] } | undefined;

  constructor(private readonly db: Database) {}

  async count(): Promise<number> {
    const rows = await this.db.query<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM bank_directory',
    );
    return Number(rows[0]?.n ?? 0);
  }

  async version(): Promise<number> {
    const rows = await this.db.query<{ version: number | string }>(
      'SELECT version FROM bank_directory_meta WHERE id = 1',
    );
    return Number(rows[0]?.version ?? 0);
  }

  /** True while the directory holds only the synthetic sample (never mixed with imported data). */
  async isSample(): Promise<boolean> {
    const rows = await this.db.query<{ sample: number | string }>(
      'SELECT sample FROM bank_directory_meta WHERE id = 1',
    );
    return Number(rows[0]?.sample ?? 0) === 1;
  }

  byRoutingNumber(routingNumber: string): Promise<DirectoryEntry[]> {
    return this.select('routing_number = $1', [routingNumber]);
  }

  /** Exact BIC, plus the other offices of the same institution for an 8-character (head office) BIC. */
  byBic(bic11: string, headOffice: boolean): Promise<DirectoryEntry[]> {
    return headOffice
      ? this.select('bic8 = $1', [bic11.slice(0, 8)])
      : this.select('bic = $1', [bic11]);
  }

  byBankCode(country: string, bankCode: string): Promise<DirectoryEntry[]> {
    return this.select('country = $1 AND bank_code = $2', [country, bankCode]);
  }

  byBranchCode(country: string, branchCode: string): Promise<DirectoryEntry[]> {
    return this.select('branch_code = $1 AND country = $2', [branchCode, country]);
  }

  /** Any code column equal to `code` (OTHERS and BANK_BRANCH_CODE look-ups). */
  async byAnyCode(code: string, country: string | undefined): Promise<DirectoryEntry[]> {
    const found = await this.select(
      'routing_number = $1 OR bic = $1 OR bic8 = $1 OR bank_code = $1 OR branch_code = $1 OR sort_code = $1',
      [code],
    );
    return country === undefined ? found : found.filter((e) => e.country === country);
  }

  /** Entries for (source, key) pairs, in the order given (one query). */
  async byKeys(keys: readonly { source: string; key: string }[]): Promise<DirectoryEntry[]> {
    if (keys.length === 0) return [];
    const where = keys.map((_, i) => `(source = $${2 * i + 1} AND entry_key = $${2 * i + 2})`);
    const rows = await this.db.query<EntryRow>(
      `SELECT details FROM bank_directory WHERE ${where.join(' OR ')}`,
      keys.flatMap((k) => [k.source, k.key]),
    );
    const entries = rows.map((r) => JSON.parse(r.details) as DirectoryEntry);
    const rank = new Map(keys.map((k, i) => [`${k.source}\u0000${k.key}`, i]));
    const at = (e: DirectoryEntry) => rank.get(`${e.source}\u0000${e.key}`) ?? keys.length;
    return entries.sort((a, b) => at(a) - at(b));
  }

  /** Names of every entry, cached per directory version. */
  async names(): Promise<readonly NameIndexItem[]> {
    return (await this.index()).items;
  }

  /** The same names grouped by normalised name. */
  async nameGroups(): Promise<readonly NameGroup[]> {
    return (await this.index()).groups;
  }

  private async index() {
    const version = await this.version();
    if (this.nameIndex?.version === version) return this.nameIndex;
    const rows = await this.db.query<{
      source: string;
      entry_key: string;
      country: string;
      name_key: string;
    }>('SELECT source, entry_key, country, name_key FROM bank_directory');
    const items = rows.map((r) => ({
      source: r.source,
      key: r.entry_key,
      country: r.country,
      nameKey: r.name_key,
    }));
    const byName = new Map<string, NameIndexItem[]>();
    for (const item of items) {
      const list = byName.get(item.nameKey);
      if (list) list.push(item);
      else byName.set(item.nameKey, [item]);
    }
    const groups = [...byName].map(([nameKey, list]) => ({ nameKey, items: list }));
    this.nameIndex = { version, items, groups };
    return this.nameIndex;
  }

  private async select(where: string, params: readonly SqlValue[]): Promise<DirectoryEntry[]> {
    const rows = await this.db.query<EntryRow>(`${SELECT} WHERE ${where} LIMIT ${LIMIT}`, params);
    return rows.map((r) => JSON.parse(r.details) as DirectoryEntry);
  }
}

export function nameKeyOf(entry: DirectoryEntry): string {
  return normaliseName(entry.bankName);
}
