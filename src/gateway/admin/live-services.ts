// The admin plane's live services — the parts that change what running gateway replicas do (tool
// catalogue, identity-provider settings) and the usage they record — built once on the gateway database
// next to admin-core's services. The admin API (live-extension.ts) and the portal call these objects.
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import type { FetchFn } from '../auth/jwt/fetch-json.js';
import { resolveIdentitySettings } from '../auth/settings.js';
import { PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS } from '../../config/gateway-jwt.js';
import type { Actor } from './actor.js';
import type { SubscriptionView } from './views.js';
import type { AuditSink } from './audit-sink.js';
import { IdentityProviderService } from './identity-provider/service.js';
import { ToolSettingsService, configuredToolCatalogue } from './tool-settings.js';
import { UsageService } from './usage.js';

export interface LiveAdminServices {
  readonly tools: ToolSettingsService;
  readonly identityProvider: IdentityProviderService;
  readonly usage: UsageService;
}

export interface LiveAdminServiceDeps {
  readonly config: FrozenConfig;
  readonly db: Database;
  readonly audit: AuditSink;
  /** The subscriptions an actor may see usage of (admin-core's ApplicationService.visibleSubscriptions). */
  readonly subscriptionsOf: (actor: Actor) => Promise<readonly SubscriptionView[]>;
  /** Replaces global fetch for identity-provider validation (tests). */
  readonly fetch?: FetchFn | undefined;
}

export function openLiveAdminServices(deps: LiveAdminServiceDeps): LiveAdminServices {
  const { config, db, audit } = deps;
  return {
    tools: new ToolSettingsService({
      db,
      audit,
      loadCatalogue: configuredToolCatalogue(config.gateway.backends),
    }),
    identityProvider: new IdentityProviderService({
      db,
      audit,
      file: config.gateway.auth.jwt,
      configured: resolveIdentitySettings(config).jwt,
      defaultMaxTokenLifetimeSeconds:
        config.environment === 'production' ? PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS : undefined,
      fetch: deps.fetch,
    }),
    usage: new UsageService({ db, subscriptionsOf: deps.subscriptionsOf }),
  };
}
