// The bank directory at acceptance (issue 26, item 2): the records an order's identifiers lead to,
// loaded from the directory tables for the rules (which stay pure), and the configured mode of each
// directory check applied to what the rules found: refuse (kept as a violation), warn (accepted, listed
// in the answer's statusReasons) or off (docs/decisions.md, D-275).
import {
  directoryModes,
  type DirectoryCheck,
  type DirectoryModes,
} from '../../config/payments-directory.js';
import type { SqlExecutor } from '../../shared/db/types.js';
import type { DirectoryEntry, DirectorySource } from '../directory/types.js';
import type { PaymentOrder } from '../domain/payment-order.js';
import {
  DIRECTORY_CHECK_OF,
  directoryKeysOf,
  type DirectoryFacts,
} from '../domain/rules/directory.js';
import type { RuleViolation } from '../domain/rules.js';

const entriesWhere = async (
  db: SqlExecutor,
  where: string,
  params: readonly string[],
): Promise<DirectoryEntry[]> =>
  (
    await db.query<{ details: string }>(
      `SELECT details FROM bank_directory WHERE ${where} LIMIT 200`,
      params,
    )
  ).map((r) => JSON.parse(r.details) as DirectoryEntry);

const RULE_SOURCES: readonly DirectorySource[] = ['fedach', 'fedwire', 'bundesbank'];

/** What the directory says about the order's routing number, German bank code and LEIs. */
export async function loadDirectoryFacts(
  db: SqlExecutor,
  order: PaymentOrder,
): Promise<DirectoryFacts> {
  const keys = directoryKeysOf(order);
  const routing = new Map<string, DirectoryEntry[]>();
  const bankCodes = new Map<string, DirectoryEntry[]>();
  const leis = new Map<string, DirectoryEntry[]>();
  const sources = new Set<DirectorySource>();
  let sample = false;
  const asked = keys.routingNumbers.length + keys.germanBankCodes.length + keys.leis.length > 0;
  if (asked) {
    for (const rtn of keys.routingNumbers) {
      routing.set(rtn, await entriesWhere(db, 'routing_number = $1', [rtn]));
    }
    for (const code of keys.germanBankCodes) {
      bankCodes.set(code, await entriesWhere(db, "country = 'DE' AND bank_code = $1", [code]));
    }
    for (const lei of keys.leis) {
      leis.set(lei, await entriesWhere(db, "source = 'gleif' AND entry_key LIKE $1", [`%:${lei}`]));
    }
    for (const source of RULE_SOURCES) {
      const any = await db.query('SELECT 1 AS one FROM bank_directory WHERE source = $1 LIMIT 1', [
        source,
      ]);
      if (any.length > 0) sources.add(source);
    }
    const meta = await db.query<{ sample: number | string }>(
      'SELECT sample FROM bank_directory_meta WHERE id = 1',
    );
    sample = Number(meta[0]?.sample ?? 0) === 1;
  }
  return { routing, bankCodes, leis, sources, sample };
}

export interface ModedViolations {
  /** Problems that refuse the order (every non-directory rule, and directory checks set to refuse). */
  readonly refusals: RuleViolation[];
  /** Directory checks set to warn: the order is accepted and these are reported with it. */
  readonly warnings: RuleViolation[];
}

/** Splits what the rules found by the configured mode of each directory check. */
export function applyDirectoryModes(
  violations: readonly RuleViolation[],
  modes: DirectoryModes = directoryModes({ acceptance: {} }),
): ModedViolations {
  const refusals: RuleViolation[] = [];
  const warnings: RuleViolation[] = [];
  for (const v of violations) {
    const check = DIRECTORY_CHECK_OF[v.code] as DirectoryCheck | undefined;
    const mode = check === undefined ? 'refuse' : modes[check];
    if (mode === 'refuse') refusals.push(v);
    else if (mode === 'warn') warnings.push(v);
  }
  return { refusals, warnings };
}
