// The portal as the admin app mounts it at /portal/: the plugin (sessions, sign-in, security headers)
// with every page, on the admin plane's services, the API's bearer authenticator (token sign-in) and the
// role rule (OpenID Connect sign-in).
import type { FastifyPluginAsync } from 'fastify';
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import type { AdminAuthenticator } from '../admin/authenticate.js';
import type { AdminServices } from '../admin/services.js';
import type { RoleRule } from '../admin/user-actor.js';
import { devPortalOidc } from '../auth/dev-idp/portal-client.js';
import { registerAdminAuditPages } from './pages/admin-audit.js';
import { registerIdentityProviderPages } from './pages/admin-identity-provider.js';
import { registerPolicyPages } from './pages/admin-policies.js';
import { registerAdminRequestPages } from './pages/admin-requests.js';
import { registerAdminSubscriptionPages } from './pages/admin-subscriptions.js';
import { registerDeveloperPages } from './pages/developer.js';
import { registerCataloguePages } from './pages/catalogue.js';
import { registerApprovalPages } from './pages/approvals.js';
import { registerToolsUsagePages } from './pages/tools-usage.js';
import { portalPlugin } from './plugin.js';
import { configuredDelegationPages } from './pages/federation-connect.js';

export interface PortalAppContext {
  readonly config: FrozenConfig;
  readonly db: Database;
  readonly services: AdminServices;
  readonly authenticator: AdminAuthenticator;
  readonly roles: RoleRule;
}

export function portalApp(context: PortalAppContext): FastifyPluginAsync {
  const { config, services } = context;
  const { admin } = config;
  return portalPlugin({
    db: context.db,
    session: admin.portal.session,
    oidc: admin.oidc ?? devPortalOidc(config),
    listener: { host: admin.host, port: admin.port, publicUrl: admin.publicUrl },
    roles: context.roles,
    async authenticateToken(token) {
      try {
        return await context.authenticator.authenticateToken(token);
      } catch {
        return null;
      }
    },
    pages: [
      registerDeveloperPages(services, config),
      registerCataloguePages(services, config),
      registerAdminRequestPages(services),
      registerAdminSubscriptionPages(services),
      registerAdminAuditPages(services),
      registerToolsUsagePages(services),
      registerIdentityProviderPages(services),
      registerPolicyPages(services),
      registerApprovalPages(services, config),
      // Identity mode delegation (issue 28): connect an account at an upstream MCP server.
      ...configuredDelegationPages(config, context.db),
    ],
  });
}
