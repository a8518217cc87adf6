// Identity mode delegation as configuration builds it, for both listeners: the gateway's call path gets
// the provider (the user's token, or the sign-in to complete), the portal on the admin listener its
// connect pages (portal/pages/federation-connect.ts). Both open the same rows in the gateway database with the same key, so they may run in
// different processes.
import type { FrozenConfig } from '../../../config/schema.js';
import type { Database } from '../../../shared/db/types.js';
import type { Logger } from '../../../shared/log/logger.js';
import { delegationBackends, delegationProvider, type DelegationProvider } from './provider.js';
import { connectUrl, type PortalListener } from './urls.js';

/** The admin listener, where the connect pages are. */
export function adminListener(config: FrozenConfig): PortalListener {
  const { host, port, publicUrl } = config.admin;
  return { host, port, publicUrl };
}

/** The provider for the configured delegation backends; undefined when no backend uses the mode. */
export function configuredDelegation(
  config: FrozenConfig,
  db: Database,
  logger?: Logger,
): DelegationProvider | undefined {
  const backends = delegationBackends(config.gateway.backends);
  const tokenKey = config.gateway.federation.tokenKey;
  if (backends.size === 0 || tokenKey === undefined) return undefined;
  const listener = adminListener(config);
  if (!config.admin.enabled)
    logger?.warn(
      { backends: [...backends.keys()] },
      'identity mode delegation needs the portal (admin.enabled) for its connect pages: users of these backends cannot sign in there',
    );
  return delegationProvider({
    db,
    tokenKey,
    backends,
    connectUrl: (backend) => connectUrl(listener, backend),
    logger,
  });
}
