// The admin plane's services, built once on the gateway database: the admin API, the portal (in process)
// and the CLI's management commands all use these objects.
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import { resolveIdentitySettings } from '../auth/settings.js';
import { SubscriptionStore } from '../auth/subscriptions/store.js';
import type { Environment } from '../auth/subscriptions/types.js';
import { AccessRequestService } from './access-requests.js';
import { ApplicationService } from './applications.js';
import { AuditLog } from './audit-log.js';
import { BootstrapTokens } from './bootstrap-token.js';
import { KeyPolicyService } from './key-policy-service.js';
import { KeyProvisioning } from './provisioning.js';

export interface AdminServices {
  readonly db: Database;
  readonly audit: AuditLog;
  readonly subscriptions: SubscriptionStore;
  readonly provisioning: KeyProvisioning;
  readonly applications: ApplicationService;
  readonly accessRequests: AccessRequestService;
  readonly keyPolicy: KeyPolicyService;
  readonly bootstrapTokens: BootstrapTokens;
}

export interface AdminServiceOptions {
  readonly clock?: () => Date;
  /** The MCP URL shown per environment; default: this deployment's gateway URL for every environment. */
  readonly mcpUrl?: (environment: Environment) => string;
}

/** Builds the services on an open, migrated gateway database (the caller owns and closes it). */
export function openAdminServices(
  db: Database,
  config: FrozenConfig,
  options: AdminServiceOptions = {},
): AdminServices {
  const clock = options.clock ?? (() => new Date());
  const audit = new AuditLog(db, clock);
  const subscriptions = new SubscriptionStore(
    db,
    config.gateway.auth.subscriptionKeys.pepper,
    clock,
  );
  const provisioning = new KeyProvisioning(db, subscriptions, audit);
  const applications = new ApplicationService(db, subscriptions, clock);
  const gatewayMcpUrl = resolveIdentitySettings(config).mcpUrl;
  return {
    db,
    audit,
    subscriptions,
    provisioning,
    applications,
    accessRequests: new AccessRequestService({
      db,
      applications,
      provisioning,
      audit,
      mcpUrl:
        options.mcpUrl ?? ((environment) => config.admin.mcpUrls[environment] ?? gatewayMcpUrl),
      clock,
    }),
    keyPolicy: new KeyPolicyService(db, audit, clock),
    bootstrapTokens: new BootstrapTokens(db, config.admin.bootstrapToken),
  };
}
