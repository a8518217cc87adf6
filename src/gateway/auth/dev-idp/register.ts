// Mounts the development identity provider on the gateway: the authorization server (oidc-provider, its
// discovery and JWKS at the issuer /dev-idp, the RFC 8414 metadata URLs) and the sign-in pages.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FrozenConfig } from '../../../config/schema.js';
import type { Database } from '../../../shared/db/types.js';
import type * as AuthorizationServer from './authorization-server.js';
import { DEV_IDP_PATH, type IdentitySettings } from '../settings.js';
import { createDevIdp } from './idp.js';
import { bundleResourceUrl } from '../../federation/bundles.js';
import { DEV_PORTAL_CLIENT_ID, devPortalOidc, devPortalRedirectUris } from './portal-client.js';
import { devAuthorizationRoutes, INTERACTION_SEGMENT } from './routes.js';

export async function registerDevIdentityProvider(
  app: FastifyInstance,
  config: FrozenConfig,
  settings: IdentitySettings,
  /** The scopes tools need (catalogue): access tokens for the gateway may carry them. */
  toolScopes: readonly string[],
  /** The gateway database: the authorization server keeps clients, grants and tokens there. */
  db: Database,
): Promise<void> {
  const dev = config.gateway.auth.devIdentityProvider;
  const idp = await createDevIdp({ dataDir: config.dataDir });
  const audience =
    settings.jwt?.issuer === settings.devIdp.issuer ? settings.jwt.audience : undefined;
  // Loaded only where the development provider runs: nothing else (keys, token, a production gateway)
  // needs oidc-provider, which warns on import under a Node.js that is not one of its LTS lines.
  const { createAuthorizationServer } = await importAuthorizationServer(app.log);
  // The MCP endpoint first (the default resource), then the configured audience and every tool bundle's
  // endpoint (RFC 8707: a client signing in to a bundle asks for a token for that bundle's URL).
  const bundles = Object.keys(config.gateway.bundles).map((name) =>
    bundleResourceUrl(settings.mcpUrl, name),
  );
  const resources = [
    ...new Set([settings.mcpUrl, ...(audience === undefined ? [] : [audience]), ...bundles]),
  ];
  const provider = await createAuthorizationServer({
    db,
    issuer: settings.devIdp.issuer,
    idp,
    users: dev.users,
    resources,
    resourceScopes: toolScopes,
    interactionPath: `${DEV_IDP_PATH}${INTERACTION_SEGMENT}`,
    accessTokenTtlSeconds: dev.accessTokenTtlSeconds,
    refreshTokenTtlSeconds: dev.refreshTokenTtlSeconds,
    exchangeClients: dev.tokenExchange.clients,
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
      resources,
    }),
  );
}

type AuthorizationServerModule = typeof AuthorizationServer;

const RUNTIME_WARNING = 'oidc-provider WARNING: Unsupported runtime';

/**
 * Imports the authorization server with oidc-provider's one "Unsupported runtime" line (printed on
 * stderr, in red, when Node.js is not an LTS line it supports: Node 20, or a current release) replaced by
 * one log entry at info level that says what it means and what to do; every other warning passes as it
 * is (docs/decisions.md, D-296).
 */
async function importAuthorizationServer(
  log: FastifyBaseLogger,
): Promise<AuthorizationServerModule> {
  const warn = console.warn;
  let replaced = false;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes(RUNTIME_WARNING)) replaced = true;
    else warn(...args);
  };
  try {
    return await import('./authorization-server.js');
  } finally {
    console.warn = warn;
    if (replaced)
      log.info(
        { node: process.versions.node },
        `Node.js ${process.versions.node} is not a line the development authorization server (oidc-provider) supports: it runs, but use Node.js 22 LTS or a later LTS (README, "Requirements")`,
      );
  }
}
