// The live admin modules as an installed extension of the admin app: tools, identity provider and usage
// routes on the live services (live-services.ts), built with the app's shared context.
import type { AdminExtension, AdminPluginContext } from './extensions.js';
import type { AdminRouteModule } from './http/module.js';
import { openLiveAdminServices, type LiveAdminServices } from './live-services.js';
import { identityProviderRoutes } from './routes/identity-provider.js';
import { toolRoutes } from './routes/tools.js';
import { usageRoutes } from './routes/usage.js';

/** The live services on the admin app's context (developers see usage of their own subscriptions). */
export function liveServicesOf(context: AdminPluginContext): LiveAdminServices {
  const { applications, audit } = context.services;
  return openLiveAdminServices({
    config: context.config,
    db: context.db,
    audit,
    subscriptionsOf: (actor) => applications.visibleSubscriptions(actor),
  });
}

export function liveRouteModules(services: LiveAdminServices): AdminRouteModule[] {
  return [
    toolRoutes({ tools: services.tools }),
    identityProviderRoutes({ identityProvider: services.identityProvider }),
    usageRoutes({ usage: services.usage }),
  ];
}

export const LIVE_ADMIN_EXTENSION: AdminExtension = {
  name: 'live',
  routes: (context) => liveRouteModules(liveServicesOf(context)),
};
