// admin-core's route modules, in the order they are registered.
import type { AdminRouteModule } from '../http/module.js';
import type { AdminServices } from '../services.js';
import { accessRequestRoutes } from './access-requests.js';
import { governanceRoutes } from './governance.js';
import { subscriptionRoutes } from './subscriptions.js';

export function coreRouteModules(services: AdminServices): AdminRouteModule[] {
  return [governanceRoutes(services), accessRequestRoutes(services), subscriptionRoutes(services)];
}
