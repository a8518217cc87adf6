// Builds the admin plane's HTTP app (no listen): the admin API under /admin/api/v1 — bearer
// authentication, every route validated by its declared schemas (http/route.ts), problem+json errors, its
// OpenAPI document made from the same declarations — and the portal at /portal/. The services are built
// once here and shared by the API and the portal; the user-token settings in force are opened here and
// closed with the app.
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import type { Logger } from '../../shared/log/logger.js';
import { createHttpApp } from '../../shared/http/create-app.js';
import { problem, sendProblem } from '../../shared/http/problem.js';
import { rawHeaderValues } from '../../shared/http/raw-headers.js';
import { portalApp } from '../portal/portal-app.js';
import type { Actor } from './actor.js';
import { AdminAuthenticator } from './authenticate.js';
import { AdminError, fromSubscriptionError } from './errors.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { ADMIN_API_BASE, registerRoutes } from './http/route.js';
import { adminApiRoutes } from './routes/admin-api.js';
import { openAdminServices } from './services.js';
import { openUserTokens } from './user-tokens.js';

export interface CreateAdminAppOptions {
  readonly config: FrozenConfig;
  readonly logger: Logger;
  /** The gateway database, migrated (openGatewayDatabase); the caller owns and closes it. */
  readonly db: Database;
}

export async function createAdminApp(options: CreateAdminAppOptions): Promise<FastifyInstance> {
  const { config, logger, db } = options;
  const services = openAdminServices(db, config);
  const userTokens = await openUserTokens(config, logger, db);
  try {
    const roles = { roleClaim: config.admin.roleClaim, adminRole: config.admin.adminRole };
    const authenticator = new AdminAuthenticator({
      bootstrapTokens: services.bootstrapTokens,
      verifier: () => userTokens.verifier(),
      roles,
    });
    const routes = adminApiRoutes(services);
    const document = buildOpenApiDocument(routes);

    const app = createHttpApp({
      logger,
      bodyLimitBytes: config.admin.bodyLimitBytes,
      requestTimeoutMs: config.admin.requestTimeoutMs,
      keepAliveTimeoutMs: config.admin.keepAliveTimeoutMs,
      readiness: [{ name: 'database', check: () => db.ping() }],
    });
    app.addHook('onClose', async () => userTokens.close());
    // Every request starts without an actor; the API's authentication hook sets it (actorOf checks).
    app.decorateRequest('actor', null as unknown as Actor);

    await app.register(
      async (api) => {
        api.setErrorHandler(renderAdminError);
        api.get('/openapi.json', async () => document);
        await api.register(async (secured) => {
          // Bearer only: cookies are never read here, so the API cannot be driven by a cross-site form.
          secured.addHook('onRequest', async (request) => {
            request.actor = await authenticator.authenticate(
              rawHeaderValues(request.raw.rawHeaders, 'authorization'),
            );
          });
          registerRoutes(secured, routes);
        });
      },
      { prefix: ADMIN_API_BASE },
    );
    await app.register(portalApp({ config, db, services, authenticator, roles }), {
      prefix: '/portal',
    });
    return app;
  } catch (error) {
    userTokens.close();
    throw error;
  }
}

/** AdminError (and the subscription store's refusals) as problem+json; anything else to the app's handler. */
function renderAdminError(error: FastifyError, _request: unknown, reply: FastifyReply) {
  const translated = fromSubscriptionError(error);
  if (!(translated instanceof AdminError)) throw error;
  if (translated.code === 'UNAUTHENTICATED') reply.header('WWW-Authenticate', 'Bearer');
  return sendProblem(
    reply,
    problem(translated.status, translated.code, translated.message, translated.fields),
  );
}
