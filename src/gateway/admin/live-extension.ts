// The live admin modules as an installed extension of the admin app: tools, identity provider and usage
// routes on the live services (live-services.ts), built with the app's shared context.
import { openLiveIdentity, type LiveIdentityProvider } from '../auth/live-identity.js';
import type { AdminExtension, AdminPluginContext } from './extensions.js';
import type { AdminRouteModule } from './http/module.js';
import { openLiveAdminServices, type LiveAdminServices } from './live-services.js';
import { identityProviderRoutes } from './routes/identity-provider.js';
import { toolRoutes } from './routes/tools.js';
import { usageRoutes } from './routes/usage.js';

const liveServices = new WeakMap<AdminPluginContext, LiveAdminServices>();

/**
 * The live services on the admin app's context (developers see usage of their own subscriptions). One
 * set per context: the API routes and the portal both ask for them at startup and must share it.
 */
export function liveServicesOf(context: AdminPluginContext): LiveAdminServices {
  const known = liveServices.get(context);
  if (known) return known;
  const { applications, audit } = context.services;
  const services = openLiveAdminServices({
    config: context.config,
    db: context.db,
    audit,
    subscriptionsOf: (actor) => applications.visibleSubscriptions(actor),
  });
  liveServices.set(context, services);
  return services;
}

export function liveRouteModules(services: LiveAdminServices): AdminRouteModule[] {
  return [
    toolRoutes({ tools: services.tools }),
    identityProviderRoutes({ identityProvider: services.identityProvider }),
    usageRoutes({ usage: services.usage }),
  ];
}

/** Identity-provider settings in force for the admin listeners of this process (closed with them). */
const identities = new Set<LiveIdentityProvider>();

export const LIVE_ADMIN_EXTENSION: AdminExtension = {
  name: 'live',
  // Users sign in to the admin plane with the identity-provider settings in force, stored ones included.
  userTokenVerifier: async ({ config, logger, db }) => {
    const identity = await openLiveIdentity(config, logger, db);
    identities.add(identity);
    return () => identity.jwt?.verifier ?? null;
  },
  routes: (context) => liveRouteModules(liveServicesOf(context)),
  close: () => {
    for (const identity of identities) identity.close();
    identities.clear();
  },
};
