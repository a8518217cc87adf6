// Stored identity-provider settings (gateway_idp_settings): every save is a new version row; the current
// settings are the highest version. The read side replicas poll (latestVersion, get) belongs to the data
// plane (auth/stored-identity-settings.ts); the admin plane adds the writes and its own views.
import type { SqlExecutor } from '../../../shared/db/types.js';
import {
  IDP_SETTINGS_COLUMNS,
  IdpSettingsReader,
  settingsVersionOf,
  type IdpSettingsRow,
  type StoredIdpSettingsVersion,
} from '../../auth/stored-identity-settings.js';
import type { IdpSettings } from './settings.js';

export type IdpSettingsVersion = StoredIdpSettingsVersion;

export class IdpSettingsRepository extends IdpSettingsReader {
  async current(tx: SqlExecutor = this.db): Promise<IdpSettingsVersion | undefined> {
    const rows = await tx.query<IdpSettingsRow>(
      `SELECT ${IDP_SETTINGS_COLUMNS} FROM gateway_idp_settings ORDER BY version DESC LIMIT 1`,
    );
    return rows[0] === undefined ? undefined : settingsVersionOf(rows[0]);
  }

  /** Newest first. */
  async list(limit = 100): Promise<IdpSettingsVersion[]> {
    const rows = await this.db.query<IdpSettingsRow>(
      `SELECT ${IDP_SETTINGS_COLUMNS} FROM gateway_idp_settings ORDER BY version DESC LIMIT $1`,
      [limit],
    );
    return rows.map(settingsVersionOf);
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
    await tx.execute(
      `INSERT INTO gateway_idp_settings (${IDP_SETTINGS_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`,
      [version, JSON.stringify(settings), at.toISOString(), by, revertedFrom ?? null],
    );
    return {
      version,
      settings,
      createdAt: at.toISOString(),
      createdBy: by,
      ...(revertedFrom === undefined ? {} : { revertedFrom }),
    };
  }
}
