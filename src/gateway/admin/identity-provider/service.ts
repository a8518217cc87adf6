// Identity-provider settings as the admin plane manages them: the current version, the history, a live
// validation, a save (a new version, refused with 422 and the report when validation fails) and a revert
// (the version before the current one, copied as a new version). Every replica picks up a new version
// within gateway.auth.settingsRefreshMs (src/gateway/auth/live-identity.ts). Admins only; each change is
// one transaction with its audit entry.
import { Type, type Static } from '@sinclair/typebox';
import type { JwtConfig, JwtConfigInput } from '../../../config/gateway-jwt.js';
import type { DeepReadonly } from '../../../config/schema.js';
import type { Database } from '../../../shared/db/types.js';
import { maskSecret } from '../../../shared/log/mask.js';
import type { FetchFn } from '../../auth/jwt/fetch-json.js';
import type { Actor } from '../actor.js';
import type { AuditSink } from '../audit-sink.js';
import { AdminError, requireAdmin, type FieldProblem } from '../errors.js';
import { invalidRequest } from '../http/validate.js';
import { IdpSettingsSchema, settingsOf, type IdpSettings } from './settings.js';
import { IdpSettingsRepository, type IdpSettingsVersion } from './store.js';
import { failed, validateIdpSettings, type IdpValidationReport } from './validate.js';

/** What `validate` and `save` take: the settings, and optionally a token of the provider to try. */
export const IdpRequestSchema = Type.Object(
  {
    settings: IdpSettingsSchema,
    sampleToken: Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 })),
  },
  { additionalProperties: false },
);

export type IdpRequest = Static<typeof IdpRequestSchema>;

/**
 * A request its schema refuses: problems inside the settings are the settings' own — a failed report
 * (`validate` answers it, `save` refuses with it) — while any other problem makes the request malformed
 * (VALIDATION_FAILED).
 */
export function reportOfRefusedRequest(problems: readonly FieldProblem[]): IdpValidationReport {
  if (problems.some((p) => !p.field.startsWith('settings.'))) throw invalidRequest(problems);
  return failed(problems);
}

/** The refusal of a save whose settings cannot be used, with every problem. */
export function notSaved(report: IdpValidationReport): AdminError {
  return new AdminError(
    'IDP_SETTINGS_INVALID',
    'The identity-provider settings were not saved: fix the problems listed.',
    report.problems,
  );
}

export interface CurrentIdpSettings {
  /** `stored`: a version saved through the admin API; `configuration`: the file's (or the development
   * provider's) settings, in force until the first save; `none`: no identity provider at all. */
  readonly source: 'stored' | 'configuration' | 'none';
  readonly version?: number | undefined;
  readonly createdAt?: string | undefined;
  readonly createdBy?: string | undefined;
  readonly revertedFrom?: number | undefined;
  readonly settings?: IdpSettings | undefined;
}

export interface IdentityProviderDeps {
  readonly db: Database;
  readonly audit: AuditSink;
  /** `gateway.auth.jwt` of the configuration file (its tuning stays under stored settings). */
  readonly file?: DeepReadonly<JwtConfigInput> | undefined;
  /** The settings in force before any stored version (file or development provider), if any. */
  readonly configured?: JwtConfig | null | undefined;
  readonly defaultMaxTokenLifetimeSeconds?: number | undefined;
  readonly fetch?: FetchFn | undefined;
  readonly clock?: (() => number) | undefined;
}

export class IdentityProviderService {
  private readonly store: IdpSettingsRepository;

  constructor(private readonly deps: IdentityProviderDeps) {
    this.store = new IdpSettingsRepository(deps.db);
  }

  async current(actor: Actor): Promise<CurrentIdpSettings> {
    requireAdmin(actor);
    const stored = await this.store.current();
    if (stored && stored.settings !== null)
      return { source: 'stored', ...stored, settings: masked(stored.settings) };
    const configured = this.deps.configured;
    const version = stored
      ? {
          version: stored.version,
          createdAt: stored.createdAt,
          createdBy: stored.createdBy,
          revertedFrom: stored.revertedFrom,
        }
      : {};
    if (configured)
      return { source: 'configuration', ...version, settings: masked(settingsOf(configured)) };
    return { source: 'none', ...version };
  }

  async versions(actor: Actor): Promise<IdpSettingsVersion[]> {
    requireAdmin(actor);
    return (await this.store.list()).map(shown);
  }

  /** Validates without saving: the report says what the gateway would make of the settings. */
  async validate(actor: Actor, request: IdpRequest): Promise<IdpValidationReport> {
    requireAdmin(actor);
    return (await this.check(request)).report;
  }

  /** Saves the settings as the next version when they validate; otherwise 422 with the report. */
  async save(actor: Actor, request: IdpRequest): Promise<IdpSettingsVersion> {
    requireAdmin(actor);
    const { report } = await this.check(request);
    if (!report.ok) throw notSaved(report);
    const settings = request.settings;
    return this.deps.db.transaction(async (tx) => {
      const before = await this.store.current(tx);
      const saved = await this.store.append(tx, settings, actor.subject, new Date());
      await this.deps.audit.append(
        {
          actor,
          action: 'identity-provider.update',
          target: { type: 'identity-provider', id: String(saved.version) },
          before: before ? { version: before.version, settings: masked(before.settings) } : null,
          after: { version: saved.version, settings: masked(saved.settings) },
        },
        tx,
      );
      return shown(saved);
    });
  }

  /**
   * Restores the version before the current one, as a new version (the history keeps every step). Not
   * validated live: a revert must work while the provider it returns to is unreachable.
   */
  async revert(actor: Actor): Promise<IdpSettingsVersion> {
    requireAdmin(actor);
    return this.deps.db.transaction(async (tx) => {
      const current = await this.store.current(tx);
      if (current === undefined)
        throw new AdminError(
          'IDP_NO_PREVIOUS_VERSION',
          'Nothing to revert: no identity-provider settings were saved through the admin API.',
        );
      // Before the first stored version came the configuration's settings ("version 0").
      const previous =
        current.version === 1
          ? { version: 0, settings: null }
          : await this.store.get(current.version - 1, tx);
      if (previous === undefined)
        throw new AdminError('IDP_NO_PREVIOUS_VERSION', 'The previous version is missing.');
      const saved = await this.store.append(
        tx,
        previous.settings,
        actor.subject,
        new Date(),
        previous.version,
      );
      await this.deps.audit.append(
        {
          actor,
          action: 'identity-provider.revert',
          target: { type: 'identity-provider', id: String(saved.version) },
          before: { version: current.version, settings: masked(current.settings) },
          after: {
            version: saved.version,
            revertedFrom: previous.version,
            settings: masked(saved.settings),
          },
        },
        tx,
      );
      return shown(saved);
    });
  }

  private check(request: IdpRequest) {
    return validateIdpSettings(request, {
      file: this.deps.file,
      defaultMaxTokenLifetimeSeconds: this.deps.defaultMaxTokenLifetimeSeconds,
      fetch: this.deps.fetch,
      clock: this.deps.clock,
    });
  }
}

function shown(version: IdpSettingsVersion): IdpSettingsVersion {
  return { ...version, settings: masked(version.settings) };
}

/** Symmetric key material (`k` of an "oct" JWK) never leaves the database: shown and audited masked. */
export function masked<S extends IdpSettings | null>(settings: S): S {
  if (settings === null || !settings.jwks) return settings;
  return {
    ...settings,
    jwks: {
      keys: settings.jwks.keys.map((key) =>
        typeof key.k === 'string' ? { ...key, k: maskSecret(key.k) } : key,
      ),
    },
  } as S;
}
