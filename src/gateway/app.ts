// Builds the gateway HTTP application from options, without listening: tests drive it with inject().
// Pipeline per POST /mcp: Origin/Content-Type/Accept checks → JSON-RPC parse → authenticate (seam) →
// dispatch → tools/call: lookup (approved, subscription) → guard (security class) → argument validation
// → upstream request (identity hook) → result mapping.
import type { FastifyInstance, FastifyPluginAsync, onResponseAsyncHookHandler } from 'fastify';
import type { FrozenConfig } from '../config/schema.js';
import type { Logger } from '../shared/log/logger.js';
import type { Database } from '../shared/db/types.js';
import type { Redis } from '../shared/redis.js';
import { createHttpApp, type ReadinessCheck } from '../shared/http/create-app.js';
import { ToolDirectory, configApprovals } from './catalogue/directory.js';
import { loadCatalogue } from './catalogue/load.js';
import type { Catalogue } from './catalogue/types.js';
import { ArgumentValidator } from './mcp/arguments.js';
import { Dispatcher } from './mcp/dispatch.js';
import { registerMcpEndpoint } from './mcp/endpoint.js';
import { securityClassGuard } from './mcp/guard.js';
import { mcpRefusalRenderer } from './mcp/refusal-format.js';
import {
  anonymousAuthenticator,
  type Authenticator,
  type ToolCallGuard,
} from './mcp/request-context.js';
import { ToolService } from './mcp/tools.js';
import { ApprovalRepository } from './storage/approvals.js';
import { BackendClient } from './upstream/backend-client.js';
import { forwardNoIdentity, type IdentityForwarder } from './upstream/identity.js';

/** The seams where authentication, quotas and identity forwarding plug in. */
export interface GatewayHooks {
  /** Once per HTTP request, before any JSON-RPC work. Default: everyone anonymous. */
  readonly authenticate?: Authenticator;
  /** Before a tools/call reaches the backend. Default: the security-class rule (user-scoped needs a user). */
  readonly guard?: ToolCallGuard;
  /** Headers carrying the caller's identity upstream. Default: none. */
  readonly identity?: IdentityForwarder;
  /** Routes that come with the hooks (protected-resource metadata, JWKS, development identity provider). */
  readonly plugins?: readonly FastifyPluginAsync[];
  /** Runs when every response is finished (request metrics). */
  readonly onResponse?: onResponseAsyncHookHandler;
}

export interface GatewayAppOptions {
  readonly config: FrozenConfig;
  readonly logger: Logger;
  readonly db: Database;
  readonly redis?: Redis | undefined;
  readonly hooks?: GatewayHooks;
  /** A prebuilt catalogue (tests, benchmarks); otherwise loaded from `gateway.backends`. */
  readonly catalogue?: Catalogue;
}

export async function buildGatewayApp(options: GatewayAppOptions): Promise<FastifyInstance> {
  const { config, db, redis } = options;
  const gateway = config.gateway;
  const readiness: ReadinessCheck[] = [{ name: 'database', check: () => db.ping() }];
  if (redis) readiness.push({ name: 'redis', check: async () => void (await redis.ping()) });
  const app = createHttpApp({
    logger: options.logger,
    bodyLimitBytes: gateway.bodyLimitBytes,
    requestTimeoutMs: gateway.requestTimeoutMs,
    keepAliveTimeoutMs: gateway.keepAliveTimeoutMs,
    readiness,
    renderRefusal: mcpRefusalRenderer(gateway.mcp.path),
  });

  const catalogue = options.catalogue ?? (await loadCatalogue(gateway.backends));
  for (const warning of catalogue.warnings)
    options.logger.warn({ catalogue: warning }, 'catalogue');
  const directory = new ToolDirectory(
    catalogue,
    configApprovals(catalogue, gateway.backends),
    new ApprovalRepository(db),
    gateway.mcp.approvalRefreshMs,
  );
  await directory.refresh(true);

  const clients = new Map(gateway.backends.map((b) => [b.name, new BackendClient(b)]));
  // Fastify runs onClose hooks only once the HTTP server has closed: every client connection has ended
  // (answered, or cut when shutdown.graceMs ran out). An upstream call still outstanding then has nobody
  // left to answer, and closing the pools gracefully would wait for its timeouts (up to totalMs, far past
  // the grace period), so the pools are destroyed instead.
  app.addHook('onClose', async () => {
    await Promise.all([...clients.values()].map((c) => c.destroy()));
  });
  const hidden = gateway.backends.flatMap((b) => {
    const url = new URL(b.baseUrl);
    return [b.baseUrl.replace(/\/+$/, ''), url.origin, url.host];
  });

  const tools = new ToolService({
    directory,
    validator: new ArgumentValidator(),
    clients,
    guard: options.hooks?.guard ?? securityClassGuard,
    identity: options.hooks?.identity ?? forwardNoIdentity,
    pageSize: gateway.mcp.pageSize,
    hidden,
  });
  const onResponse = options.hooks?.onResponse;
  if (onResponse) app.addHook('onResponse', onResponse);
  for (const plugin of options.hooks?.plugins ?? []) await app.register(plugin);
  await registerMcpEndpoint(app, {
    path: gateway.mcp.path,
    dispatcher: new Dispatcher(tools, {
      name: gateway.mcp.serverName,
      instructions: gateway.mcp.instructions,
    }),
    authenticate: options.hooks?.authenticate ?? anonymousAuthenticator,
    allowedOrigins: gateway.mcp.allowedOrigins,
    allowLoopbackOrigins: gateway.mcp.allowLoopbackOrigins,
    maxBatchSize: gateway.mcp.maxBatchSize,
  });
  options.logger.info(
    { tools: catalogue.tools.length, backends: gateway.backends.map((b) => b.name) },
    'tool catalogue loaded',
  );
  return app;
}
