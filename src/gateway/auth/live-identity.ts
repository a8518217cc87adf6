// The user-JWT settings a running gateway enforces, swapped without a restart. At start they are the
// configuration's (gateway.auth.jwt as loadConfig resolved it, or the development provider's) unless the
// admin API has stored a version; then every `gateway.auth.settingsRefreshMs` one cheap query (the highest
// stored version) tells whether a newer version exists, and only then is it read, resolved exactly as
// configuration is, and a new verifier built and swapped in with one assignment. Requests read the current
// verifier from memory: no I/O is added to the request path. A version that cannot be applied is logged and
// the gateway keeps enforcing what it has. The stored versions are read through the data plane's own
// interface (stored-identity-settings.ts); the admin plane writes them.
import { resolveJwtConfig, type JwtConfig, type JwtConfigInput } from '../../config/gateway-jwt.js';
import type { DeepReadonly, FrozenConfig } from '../../config/schema.js';
import { resolveIdentitySettings, type IdentitySettings } from './settings.js';
import type { Logger } from '../../shared/log/logger.js';
import type { Database } from '../../shared/db/types.js';
import {
  IdpSettingsReader,
  jwtInputOf,
  type IdpSettingsSource,
} from './stored-identity-settings.js';
import { createJwtVerifier, type JwtVerifier, type JwtVerifierDeps } from './jwt/verify.js';

export interface LiveJwt {
  readonly mode: JwtConfig['mode'];
  readonly verifier: JwtVerifier;
}

export interface LiveIdentityOptions {
  readonly stored: IdpSettingsSource;
  /** In force while no version is stored (configuration or development provider); null: none. */
  readonly configured: JwtConfig | null;
  /** The file's gateway.auth.jwt: its tuning stays under stored settings. */
  readonly file?: DeepReadonly<JwtConfigInput> | undefined;
  readonly defaultMaxTokenLifetimeSeconds?: number | undefined;
  readonly refreshMs: number;
  readonly logger: Logger;
  readonly verifierDeps?: JwtVerifierDeps | undefined;
}

interface State {
  /** The stored version in force; 0: the configured settings. */
  readonly version: number;
  readonly config: JwtConfig | null;
  readonly jwt: LiveJwt | null;
}

export class LiveIdentityProvider {
  private state: State;
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> | undefined;
  /** A stored version that failed to apply (not retried until a newer one appears). */
  private failedVersion = 0;

  constructor(private readonly options: LiveIdentityOptions) {
    this.state = { version: 0, config: options.configured, jwt: this.build(options.configured) };
  }

  /** The mode and verifier in force (null: no identity provider, every caller anonymous). */
  get jwt(): LiveJwt | null {
    return this.state.jwt;
  }

  /** The settings in force. */
  get config(): JwtConfig | null {
    return this.state.config;
  }

  /** The stored version in force (0: the configured settings). */
  get version(): number {
    return this.state.version;
  }

  /** Applies the stored version if there is one, then checks every refreshMs (timer unref'd). */
  async start(): Promise<void> {
    await this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.options.refreshMs);
    this.timer.unref();
  }

  /** Checks for a newer stored version and applies it (one check at a time; never throws). */
  refresh(): Promise<void> {
    this.pending ??= this.check().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.state.jwt?.verifier.close();
  }

  private async check(): Promise<void> {
    let latest: number;
    try {
      latest = await this.options.stored.latestVersion();
    } catch (error) {
      this.options.logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'identity-provider settings could not be checked: keeping the current ones',
      );
      return;
    }
    if (latest === this.state.version || latest === this.failedVersion) return;
    try {
      let config = this.options.configured;
      if (latest > 0) {
        const stored = await this.options.stored.get(latest);
        if (!stored) return;
        if (stored.settings !== null)
          config = resolveJwtConfig(
            jwtInputOf(stored.settings, this.options.file),
            this.options.defaultMaxTokenLifetimeSeconds,
          );
      }
      this.swap({ version: latest, config, jwt: this.build(config) });
      this.options.logger.info(
        { version: latest, issuer: config?.issuer, mode: config?.mode },
        'identity-provider settings applied',
      );
    } catch (error) {
      this.failedVersion = latest;
      this.options.logger.error(
        { version: latest, reason: error instanceof Error ? error.message : String(error) },
        'stored identity-provider settings cannot be applied: keeping the current ones',
      );
    }
  }

  private swap(next: State): void {
    const previous = this.state;
    this.state = next;
    // Verifications already running keep the verifier they hold; closing only clears its caches.
    previous.jwt?.verifier.close();
  }

  private build(config: JwtConfig | null): LiveJwt | null {
    if (config === null) return null;
    return { mode: config.mode, verifier: createJwtVerifier(config, this.options.verifierDeps) };
  }
}

/**
 * The settings in force for this deployment, started: the configuration's (or the development provider's),
 * replaced by versions stored through the admin API. The gateway and the admin listener both use it.
 */
export async function openLiveIdentity(
  config: FrozenConfig,
  logger: Logger,
  db: Database,
  settings: IdentitySettings = resolveIdentitySettings(config),
  verifierDeps?: JwtVerifierDeps,
): Promise<LiveIdentityProvider> {
  const identity = new LiveIdentityProvider({
    stored: new IdpSettingsReader(db),
    configured: settings.jwt,
    file: config.gateway.auth.jwt,
    defaultMaxTokenLifetimeSeconds: config.resolved.defaultMaxTokenLifetimeSeconds,
    refreshMs: config.gateway.auth.settingsRefreshMs,
    logger,
    verifierDeps,
  });
  await identity.start();
  return identity;
}
