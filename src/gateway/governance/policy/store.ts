// Stored policy versions (gateway_policy_versions): every save is a new row, and the current set is the
// highest version. Replicas poll `latestVersion` (one indexed MAX) and read a row only when it moves. The
// admin plane appends with optimistic concurrency: the version it read plus one, or nothing. Two saves
// racing on the same version are settled by the primary key.
import { UniqueViolationError, type Database, type SqlExecutor } from '../../../shared/db/types.js';
import type { PolicyRule } from './compile.js';

export interface StoredPolicyVersion {
  readonly version: number;
  readonly rules: readonly PolicyRule[];
  readonly createdAt: string;
  readonly createdBy: string;
}

interface Row {
  version: number | string;
  rules: string;
  created_at: string;
  created_by: string;
}

const COLUMNS = 'version, rules, created_at, created_by';

/** What a replica needs of the stored versions. */
export interface PolicyVersionSource {
  /** The newest stored version; 0 while nothing is stored. */
  latestVersion(): Promise<number>;
  get(version: number): Promise<StoredPolicyVersion | undefined>;
}

export class PolicyVersionStore implements PolicyVersionSource {
  constructor(private readonly db: Database) {}

  async latestVersion(tx: SqlExecutor = this.db): Promise<number> {
    const rows = await tx.query<{ version: number | string | null }>(
      'SELECT MAX(version) AS version FROM gateway_policy_versions',
    );
    return Number(rows[0]?.version ?? 0);
  }

  async get(version: number, tx: SqlExecutor = this.db): Promise<StoredPolicyVersion | undefined> {
    const rows = await tx.query<Row>(
      `SELECT ${COLUMNS} FROM gateway_policy_versions WHERE version = $1`,
      [version],
    );
    return rows[0] === undefined ? undefined : versionOf(rows[0]);
  }

  /** Newest first. */
  async list(limit = 50): Promise<StoredPolicyVersion[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM gateway_policy_versions ORDER BY version DESC LIMIT $1`,
      [limit],
    );
    return rows.map(versionOf);
  }

  /**
   * Stores `rules` as version `expected + 1` inside `tx` when `expected` is still the latest version;
   * undefined when another save came first (the caller answers with a conflict).
   */
  async append(
    tx: SqlExecutor,
    expected: number,
    rules: readonly PolicyRule[],
    by: string,
    at: Date,
  ): Promise<StoredPolicyVersion | undefined> {
    if ((await this.latestVersion(tx)) !== expected) return undefined;
    const version = expected + 1;
    try {
      await tx.execute(`INSERT INTO gateway_policy_versions (${COLUMNS}) VALUES ($1, $2, $3, $4)`, [
        version,
        JSON.stringify(rules),
        at.toISOString(),
        by,
      ]);
    } catch (error) {
      if (error instanceof UniqueViolationError) return undefined;
      throw error;
    }
    return { version, rules, createdAt: at.toISOString(), createdBy: by };
  }
}

function versionOf(row: Row): StoredPolicyVersion {
  return {
    version: Number(row.version),
    rules: JSON.parse(row.rules) as PolicyRule[],
    createdAt: row.created_at,
    createdBy: row.created_by,
  };
}
