// Builds the admin plane's HTTP app (no listen): the admin API under /admin/api/v1 with bearer
// authentication, request validation and problem+json errors, its OpenAPI document, the route modules of
// admin-core and of every extension, and the portal at /portal/ when one is installed.
import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import type { Logger } from '../../shared/log/logger.js';
import { createHttpApp } from '../../shared/http/create-app.js';
import { problemType, sendProblem } from '../../shared/http/problem.js';
import { reasonPhrase } from '../../shared/http/status.js';
import { createJwtVerifier, type JwtVerifier } from '../auth/jwt/verify.js';
import { resolveIdentitySettings } from '../auth/settings.js';
import type { Actor } from './actor.js';
import { AdminAuthenticator } from './authenticate.js';
import { AdminError, fromSubscriptionError } from './errors.js';
import {
  INSTALLED_ADMIN_EXTENSIONS,
  type AdminExtension,
  type AdminPluginContext,
} from './extensions.js';
import { ADMIN_API_BASE, type AdminRouteModule } from './http/module.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { coreRouteModules } from './routes/core.js';
import { openAdminServices, type AdminServices } from './services.js';

export interface CreateAdminAppOptions {
  readonly config: FrozenConfig;
  readonly logger: Logger;
  /** The gateway database, migrated (openGatewayDatabase); the caller owns and closes it. */
  readonly db: Database;
  /** Prebuilt services (tests, or a process sharing them with the portal); else built on `db`. */
  readonly services?: AdminServices;
  /**
   * How user tokens are verified: a verifier, a function returning the one in force (identity-provider
   * settings that change at run time), or null for none. Default: the gateway's configured verifier.
   */
  readonly verifier?: JwtVerifier | null | (() => JwtVerifier | null);
  /** Route modules beside the core ones (tests; installed extensions come through `extensions`). */
  readonly extraRoutes?: readonly AdminRouteModule[];
  /** The portal plugin, mounted at /portal/. */
  readonly portal?: FastifyPluginAsync;
  /** Default: INSTALLED_ADMIN_EXTENSIONS. */
  readonly extensions?: readonly AdminExtension[];
}

export async function createAdminApp(options: CreateAdminAppOptions): Promise<FastifyInstance> {
  const { config, logger, db } = options;
  const services = options.services ?? openAdminServices(db, config);
  const closers: (() => unknown)[] = [];
  const extensions = options.extensions ?? INSTALLED_ADMIN_EXTENSIONS;
  const fromExtension = extensions.find((e) => e.userTokenVerifier !== undefined);
  const verifier =
    options.verifier === undefined && fromExtension?.userTokenVerifier !== undefined
      ? await fromExtension.userTokenVerifier({ config, logger, db })
      : verifierSource(options.verifier, config, closers);
  const authenticator = new AdminAuthenticator({
    bootstrapTokens: services.bootstrapTokens,
    verifier,
    roleClaim: config.admin.roleClaim,
    adminRole: config.admin.adminRole,
  });
  const context: AdminPluginContext = { config, logger, db, services, authenticator, verifier };

  const app = createHttpApp({
    logger,
    bodyLimitBytes: config.admin.bodyLimitBytes,
    requestTimeoutMs: config.admin.requestTimeoutMs,
    keepAliveTimeoutMs: config.admin.keepAliveTimeoutMs,
    readiness: [{ name: 'database', check: () => db.ping() }],
  });
  // Every request starts without an actor; the API's authentication hook sets it (actorOf checks).
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onClose', async () => {
    for (const close of closers.reverse()) await close();
  });

  const modules: AdminRouteModule[] = [
    ...coreRouteModules(services),
    ...(options.extraRoutes ?? []),
  ];
  let portal = options.portal;
  for (const extension of extensions) {
    if (extension.routes) modules.push(...(await extension.routes(context)));
    if (extension.portal && portal === undefined) portal = await extension.portal(context);
    if (extension.close) closers.push(() => extension.close?.());
  }
  const document = buildOpenApiDocument(modules.map((m) => m.openApiPaths));

  await app.register(
    async (api) => {
      api.setErrorHandler(renderAdminError);
      api.get('/openapi.json', async () => document);
      await api.register(async (secured) => {
        // Bearer only: cookies are never read here, so the API cannot be driven by a cross-site form.
        secured.addHook('onRequest', async (request) => {
          request.actor = await authenticator.authenticate(request.headers.authorization);
        });
        for (const module of modules) await secured.register(module.plugin);
      });
    },
    { prefix: ADMIN_API_BASE },
  );
  if (portal !== undefined) await app.register(portal, { prefix: '/portal' });
  return app;
}

function verifierSource(
  given: CreateAdminAppOptions['verifier'],
  config: FrozenConfig,
  closers: (() => unknown)[],
): () => JwtVerifier | null {
  if (typeof given === 'function') return given;
  if (given !== undefined) return () => given;
  const settings = resolveIdentitySettings(config);
  if (settings.jwt === null) return () => null;
  const created = createJwtVerifier(settings.jwt);
  closers.push(() => created.close());
  return () => created;
}

/** AdminError (and the subscription store's refusals) as problem+json; anything else to the app's handler. */
function renderAdminError(
  error: FastifyError,
  _request: unknown,
  reply: Parameters<typeof sendProblem>[0],
) {
  const translated = fromSubscriptionError(error);
  if (!(translated instanceof AdminError)) throw error;
  if (translated.code === 'UNAUTHENTICATED') reply.header('WWW-Authenticate', 'Bearer');
  return sendProblem(reply, {
    type: problemType(translated.code),
    title: reasonPhrase(translated.status),
    status: translated.status,
    code: translated.code,
    detail: translated.message,
    ...(translated.fields.length === 0
      ? {}
      : {
          errors: translated.fields.map((f) => ({
            field: f.field,
            pointer: f.field === '' ? '' : `/${f.field.split('.').join('/')}`,
            code: translated.code,
            message: f.message,
          })),
        }),
  });
}
