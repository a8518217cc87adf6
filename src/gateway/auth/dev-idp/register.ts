// Mounts the development identity provider on the gateway: the authorization server (oidc-provider, its
// discovery and JWKS at the issuer /dev-idp, the RFC 8414 metadata URLs) and the sign-in pages.
import type { FastifyInstance } from 'fastify';
import type { FrozenConfig } from '../../../config/schema.js';
import { DEV_IDP_PATH, type IdentitySettings } from '../settings.js';
import { createDevIdp } from './idp.js';
import { DEV_PORTAL_CLIENT_ID, devPortalOidc, devPortalRedirectUris } from './portal-client.js';
import { devAuthorizationRoutes, INTERACTION_SEGMENT } from './routes.js';

export async function registerDevIdentityProvider(
  app: FastifyInstance,
  config: FrozenConfig,
  settings: IdentitySettings,
  /** The scopes tools need (catalogue): access tokens for the gateway may carry them. */
  toolScopes: readonly string[],
): Promise<void> {
  const dev = config.gateway.auth.devIdentityProvider;
  const idp = await createDevIdp({ dataDir: config.dataDir });
  const audience =
    settings.jwt?.issuer === settings.devIdp.issuer ? settings.jwt.audience : undefined;
  // Loaded only where the development provider runs: oidc-provider warns on import under Node 20
  // (it supports 22+), and nothing else (keys, token, a production gateway) needs it.
  const { createAuthorizationServer } = await import('./authorization-server.js');
  const provider = createAuthorizationServer({
    issuer: settings.devIdp.issuer,
    idp,
    users: dev.users,
    resources: [...new Set([settings.mcpUrl, ...(audience === undefined ? [] : [audience])])],
    resourceScopes: toolScopes,
    interactionPath: `${DEV_IDP_PATH}${INTERACTION_SEGMENT}`,
    accessTokenTtlSeconds: dev.accessTokenTtlSeconds,
    refreshTokenTtlSeconds: dev.refreshTokenTtlSeconds,
    clients:
      devPortalOidc(config) === undefined
        ? []
        : [{ clientId: DEV_PORTAL_CLIENT_ID, redirectUris: devPortalRedirectUris(config) }],
  });
  await app.register(
    devAuthorizationRoutes({
      provider,
      prefix: DEV_IDP_PATH,
      users: dev.users,
      autoLogin: dev.autoLogin,
    }),
  );
}
