// Every route of the admin API, in the order they are registered and documented.
import type { AdminRoute } from '../http/route.js';
import type { AdminServices } from '../services.js';
import { accessRequestRoutes } from './access-requests.js';
import { approvalRoutes } from './approvals.js';
import { governanceRoutes } from './governance.js';
import { identityProviderRoutes } from './identity-provider.js';
import { policyRoutes } from './policies.js';
import { subscriptionRoutes } from './subscriptions.js';
import { toolRoutes } from './tools.js';
import { usageRoutes } from './usage.js';

export function adminApiRoutes(services: AdminServices): AdminRoute[] {
  return [
    ...governanceRoutes(services),
    ...accessRequestRoutes(services),
    ...subscriptionRoutes(services),
    ...toolRoutes(services),
    ...identityProviderRoutes(services),
    ...usageRoutes(services),
    ...policyRoutes(services),
    ...approvalRoutes(services),
  ];
}
