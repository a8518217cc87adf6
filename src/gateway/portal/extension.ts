// The portal as an admin-plane extension: built from the admin app's shared context (database, services,
// the API's bearer authenticator and role rule), mounted by createAdminApp at /portal/.
import type { FastifyInstance } from 'fastify';
import type { AdminExtension, AdminPluginContext } from '../admin/extensions.js';
import { actorFromUser } from '../admin/authenticate.js';
import type { Actor } from '../admin/actor.js';
import { portalPlugin, type PortalContext } from './plugin.js';
import { registerDeveloperPages } from './pages/developer.js';
import { registerAdminRequestPages } from './pages/admin-requests.js';
import { registerAdminAuditPages } from './pages/admin-audit.js';
import { registerAdminSubscriptionPages } from './pages/admin-subscriptions.js';
import { registerToolsUsagePages } from './pages/tools-usage.js';
import { registerIdentityProviderPages } from './pages/admin-identity-provider.js';
import { liveServicesOf } from '../admin/live-extension.js';
import { devPortalOidc } from '../auth/dev-idp/portal-client.js';

type PageRegistration = (app: FastifyInstance, portal: PortalContext) => void;

/** Every page of the portal, on admin-core's services and the live services (tools, identity provider, usage). */
export function portalPages(context: AdminPluginContext): PageRegistration[] {
  const live = liveServicesOf(context);
  return [
    registerDeveloperPages(context.services),
    registerAdminRequestPages(context.services),
    registerAdminSubscriptionPages(context.services),
    registerAdminAuditPages(context.services),
    registerToolsUsagePages({
      tools: live.tools,
      usage: live.usage,
      visibleSubscriptions: (actor) => context.services.applications.visibleSubscriptions(actor),
    }),
    registerIdentityProviderPages({ identityProvider: live.identityProvider }),
  ];
}

export const portalExtension: AdminExtension = {
  name: 'portal',
  portal(context) {
    const { admin } = context.config;
    return portalPlugin({
      db: context.db,
      session: admin.portal.session,
      oidc: admin.oidc ?? devPortalOidc(context.config),
      roleOf: (claims) =>
        actorFromUser(
          { subject: 'oidc', claims, expiresAt: 0, tokenHash: '' },
          admin.roleClaim,
          admin.adminRole,
          'oidc-session',
        ).role === 'admin'
          ? 'admin'
          : 'developer',
      async authenticateToken(token): Promise<Actor | null> {
        try {
          return await context.authenticator.authenticate(`Bearer ${token}`);
        } catch {
          return null;
        }
      },
      pages: portalPages(context),
    });
  },
};
