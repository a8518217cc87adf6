// Stored identity-provider settings (gateway_idp_settings): every save is a new version row; the current
// settings are the highest version. Replicas poll `latestVersion` (one indexed MAX) and read a version's
// settings only when it changes.
import type { Database, SqlExecutor } from '../../../shared/db/types.js';
import type { IdpSettings } from './settings.js';

export interface IdpSettingsVersion {
  readonly version: number;
  /** null: back to the configuration's settings (a revert of the first stored version). */
  readonly settings: IdpSettings | null;
  readonly createdAt: string;
  readonly createdBy: string;
  /** The version this one copies, when it was made by a revert. */
  readonly revertedFrom?: number | undefined;
}

interface Row {
  version: number | string;
  settings: string;
  created_at: string;
  created_by: string;
  reverted_from: number | string | null;
}

const COLUMNS = 'version, settings, created_at, created_by, reverted_from';

export class IdpSettingsRepository {
  constructor(private readonly db: Database) {}

  /** 0 while nothing is stored. */
  async latestVersion(tx: SqlExecutor = this.db): Promise<number> {
    const rows = await tx.query<{ version: number | string | null }>(
      'SELECT MAX(version) AS version FROM gateway_idp_settings',
    );
    return Number(rows[0]?.version ?? 0);
  }

  async get(version: number, tx: SqlExecutor = this.db): Promise<IdpSettingsVersion | undefined> {
    const rows = await tx.query<Row>(
      `SELECT ${COLUMNS} FROM gateway_idp_settings WHERE version = $1`,
      [version],
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  async current(tx: SqlExecutor = this.db): Promise<IdpSettingsVersion | undefined> {
    const rows = await tx.query<Row>(
      `SELECT ${COLUMNS} FROM gateway_idp_settings ORDER BY version DESC LIMIT 1`,
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  /** Newest first. */
  async list(limit = 100): Promise<IdpSettingsVersion[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM gateway_idp_settings ORDER BY version DESC LIMIT $1`,
      [limit],
    );
    return rows.map(fromRow);
  }

  /** Adds the next version inside `tx`; returns it. */
  async append(
    tx: SqlExecutor,
    settings: IdpSettings | null,
    by: string,
    at: Date,
    revertedFrom?: number,
  ): Promise<IdpSettingsVersion> {
    const version = (await this.latestVersion(tx)) + 1;
    await tx.execute(`INSERT INTO gateway_idp_settings (${COLUMNS}) VALUES ($1, $2, $3, $4, $5)`, [
      version,
      JSON.stringify(settings),
      at.toISOString(),
      by,
      revertedFrom ?? null,
    ]);
    return {
      version,
      settings,
      createdAt: at.toISOString(),
      createdBy: by,
      ...(revertedFrom === undefined ? {} : { revertedFrom }),
    };
  }
}

function fromRow(row: Row): IdpSettingsVersion {
  return {
    version: Number(row.version),
    settings: JSON.parse(row.settings) as IdpSettings | null,
    createdAt: row.created_at,
    createdBy: row.created_by,
    ...(row.reverted_from === null ? {} : { revertedFrom: Number(row.reverted_from) }),
  };
}
