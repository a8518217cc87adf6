// Identity-provider settings stored through the admin API, as the data plane reads them. The admin plane
// writes them (admin/identity-provider/store.ts: one row per save in gateway_idp_settings, the current
// settings the highest version); every replica reads the newest version through the narrow interface
// below and turns it into its user-JWT configuration (jwtInputOf). The stored fields (mode, issuer,
// audience, discovery URL or static keys, algorithms, forwarded claims) replace those of
// `gateway.auth.jwt`; the file keeps the tuning the admin API does not offer (clock tolerance, token size
// and lifetime bounds, required claims, caches, discovery timeouts).
import type { JwsAlgorithm, JwtConfigInput } from '../../config/gateway-jwt.js';
import type { DeepReadonly } from '../../config/schema.js';
import type { Database, SqlExecutor } from '../../shared/db/types.js';

/** The stored settings (JSON in gateway_idp_settings.settings), validated by the admin API before a save. */
export interface StoredIdpSettings {
  mode: 'required' | 'anonymous' | 'conditional';
  issuer: string;
  audience: string;
  discoveryUrl?: string;
  jwks?: { keys: Record<string, unknown>[] };
  algorithms?: JwsAlgorithm[];
  forwardClaims: { claim: string; header: string }[];
}

export interface StoredIdpSettingsVersion {
  readonly version: number;
  /** null: back to the configuration's settings (a revert of the first stored version). */
  readonly settings: StoredIdpSettings | null;
  readonly createdAt: string;
  readonly createdBy: string;
  /** The version this one copies, when it was made by a revert. */
  readonly revertedFrom?: number | undefined;
}

/** What a replica needs of the stored settings: has a newer version been saved, and what does it say. */
export interface IdpSettingsSource {
  /** The newest stored version; 0 while nothing is stored. */
  latestVersion(): Promise<number>;
  get(version: number): Promise<StoredIdpSettingsVersion | undefined>;
}

export interface IdpSettingsRow {
  version: number | string;
  settings: string;
  created_at: string;
  created_by: string;
  reverted_from: number | string | null;
}

export const IDP_SETTINGS_COLUMNS = 'version, settings, created_at, created_by, reverted_from';

/** The read side of gateway_idp_settings: one indexed MAX to poll, one row read when it moves. */
export class IdpSettingsReader implements IdpSettingsSource {
  constructor(protected readonly db: Database) {}

  async latestVersion(tx: SqlExecutor = this.db): Promise<number> {
    const rows = await tx.query<{ version: number | string | null }>(
      'SELECT MAX(version) AS version FROM gateway_idp_settings',
    );
    return Number(rows[0]?.version ?? 0);
  }

  async get(
    version: number,
    tx: SqlExecutor = this.db,
  ): Promise<StoredIdpSettingsVersion | undefined> {
    const rows = await tx.query<IdpSettingsRow>(
      `SELECT ${IDP_SETTINGS_COLUMNS} FROM gateway_idp_settings WHERE version = $1`,
      [version],
    );
    return rows[0] === undefined ? undefined : settingsVersionOf(rows[0]);
  }
}

export function settingsVersionOf(row: IdpSettingsRow): StoredIdpSettingsVersion {
  return {
    version: Number(row.version),
    settings: JSON.parse(row.settings) as StoredIdpSettings | null,
    createdAt: row.created_at,
    createdBy: row.created_by,
    ...(row.reverted_from === null ? {} : { revertedFrom: Number(row.reverted_from) }),
  };
}

/** The gateway.auth.jwt input the settings make, over the file's own slice (when it has one). */
export function jwtInputOf(
  settings: StoredIdpSettings,
  file?: DeepReadonly<JwtConfigInput> | undefined,
): JwtConfigInput {
  const { discovery: fileDiscovery, ...tuning } = structuredClone(file ?? {}) as JwtConfigInput;
  delete tuning.staticKeys;
  delete tuning.algorithms;
  const { url: _fileUrl, ...discoveryTuning } = fileDiscovery ?? {};
  const input: JwtConfigInput = {
    ...tuning,
    mode: settings.mode,
    issuer: settings.issuer,
    audience: settings.audience,
    forwardClaims: Object.fromEntries(settings.forwardClaims.map((f) => [f.claim, f.header])),
  };
  if (settings.jwks !== undefined) input.staticKeys = settings.jwks.keys.map((jwk) => ({ jwk }));
  if (settings.discoveryUrl !== undefined || settings.jwks === undefined)
    input.discovery = {
      ...discoveryTuning,
      ...(settings.discoveryUrl === undefined ? {} : { url: settings.discoveryUrl }),
    };
  if (settings.algorithms !== undefined) input.algorithms = [...settings.algorithms];
  return input;
}
