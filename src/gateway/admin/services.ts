// The admin plane's services, built once on the gateway database: the admin API, the portal (in process)
// and the CLI's management commands all use these objects. Building them does no I/O and starts nothing;
// the caller owns and closes the database.
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import { resolveIdentitySettings } from '../auth/settings.js';
import { SubscriptionStore } from '../auth/subscriptions/store.js';
import { AccessRequestService } from './access-requests.js';
import { ApplicationService } from './applications.js';
import { AuditLog } from './audit-log.js';
import { BootstrapTokens } from './bootstrap-token.js';
import { IdentityProviderService } from './identity-provider/service.js';
import { KeyPolicyService } from './key-policy-service.js';
import { PolicyService } from './policies.js';
import { KeyProvisioning } from './provisioning.js';
import { ToolSettingsService, configuredToolCatalogue, securityClassOf } from './tool-settings.js';
import { UsageService } from './usage.js';
import { ApprovalDecisions } from './approvals.js';
import { createConsentService } from '../governance/consent/service.js';
import { gatewayUrlOf, type GatewayUrlSettings } from './gateway-urls.js';

export interface AdminServices {
  readonly db: Database;
  readonly audit: AuditLog;
  readonly subscriptions: SubscriptionStore;
  readonly provisioning: KeyProvisioning;
  readonly applications: ApplicationService;
  readonly accessRequests: AccessRequestService;
  readonly keyPolicy: KeyPolicyService;
  readonly bootstrapTokens: BootstrapTokens;
  /** The tool catalogue as the admin plane shows and changes it (every replica applies changes). */
  readonly tools: ToolSettingsService;
  /** Identity-provider settings: stored versions, live validation, revert. */
  readonly identityProvider: IdentityProviderService;
  /** Usage per subscription and tool, as the gateway records it. */
  readonly usage: UsageService;
  /** Governance rules: stored versions, save with compile check, dry run (issue 25). */
  readonly policies: PolicyService;
  /** Approvals of governed calls: listing and deciding (audited). */
  readonly approvals: ApprovalDecisions;
}

/** Builds the services on an open, migrated gateway database (the caller owns and closes it). */
export function openAdminServices(db: Database, config: FrozenConfig): AdminServices {
  const audit = new AuditLog(db);
  const subscriptions = new SubscriptionStore(db, config.gateway.auth.subscriptionKeys.pepper);
  const provisioning = new KeyProvisioning(
    db,
    subscriptions,
    audit,
    Object.keys(config.gateway.bundles).sort(),
  );
  const applications = new ApplicationService(db, subscriptions);
  const identity = resolveIdentitySettings(config);
  const tools = new ToolSettingsService({
    db,
    audit,
    loadCatalogue: configuredToolCatalogue(config.gateway.backends),
  });
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
      mcpUrl: (environment) => gatewayUrlOf(gatewayUrlSettings(config), environment),
    }),
    keyPolicy: new KeyPolicyService(db, audit),
    bootstrapTokens: new BootstrapTokens(db, config.admin.bootstrapToken),
    tools,
    identityProvider: new IdentityProviderService({
      db,
      audit,
      file: config.gateway.auth.jwt,
      configured: identity.jwt,
      defaultMaxTokenLifetimeSeconds: config.resolved.defaultMaxTokenLifetimeSeconds,
    }),
    usage: new UsageService({
      db,
      subscriptionsOf: (actor) => applications.visibleSubscriptions(actor),
    }),
    policies: new PolicyService({
      db,
      audit,
      governance: config.gateway.governance,
      configured: config.gateway.policies,
      lookupTool: (name) => policyToolOf(tools, name),
    }),
    approvals: new ApprovalDecisions({ db, audit, consent: createConsentService({ db, config }) }),
  };
}

/** The catalogue's view of a tool for the policy dry run; undefined when there is none by that name. */
async function policyToolOf(tools: ToolSettingsService, name: string) {
  const tool = (await tools.list()).find((t) => t.name === name);
  if (tool === undefined) return undefined;
  return {
    backend: tool.backend,
    securityClass: securityClassOf(tool.securityClass),
    annotations: tool.annotations,
  };
}

/** Where each environment's gateway is, as configuration says (docs/decisions.md, D-299). */
export function gatewayUrlSettings(config: FrozenConfig): GatewayUrlSettings {
  return {
    served: config.environment,
    localMcpUrl: resolveIdentitySettings(config).mcpUrl,
    configured: config.admin.mcpUrls,
  };
}
