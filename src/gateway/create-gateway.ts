// Builds the whole gateway from configuration and its open stores, without listening: the listening
// service (service.ts), the command line and the tests all build it here. What it builds, in the order of
// the request path (docs/architecture.md): the HTTP app → the MCP endpoint → the gatekeeper (subscription
// keys, user tokens, quotas, security classes) → the dispatcher → the tool catalogue → the backend clients
// with identity forwarding; beside them the routes that go with them (RFC 9728 protected-resource metadata,
// the gateway's JWKS, the development identity provider, /metrics). Closing the app closes everything built
// here; the stores belong to whoever opened them.
import type { FastifyInstance } from 'fastify';
import type { FrozenConfig } from '../config/schema.js';
import type { Logger } from '../shared/log/logger.js';
import type { Database } from '../shared/db/types.js';
import type { RedisClient } from '../shared/redis.js';
import { createHttpApp, type ReadinessCheck } from '../shared/http/create-app.js';
import { createGatekeeper, type Gatekeeper } from './gatekeeper/gatekeeper.js';
import { loadAssertionSigner } from './auth/assertion/gateway-signer.js';
import { registerDevIdentityProvider } from './auth/dev-idp/register.js';
import { openLiveIdentity, type LiveIdentityProvider } from './auth/live-identity.js';
import { openLiveGovernor, type LiveGovernor } from './governance/policy/live-governor.js';
import {
  buildProtectedResourceMetadata,
  protectedResourceMetadataUrls,
} from './auth/jwt/protected-resource.js';
import { resolveIdentitySettings, type IdentitySettings } from './auth/settings.js';
import { SubscriptionKeyAuthenticator } from './auth/subscriptions/authenticate.js';
import { SubscriptionStore } from './auth/subscriptions/store.js';
import { KeyUseRecorder } from './auth/subscriptions/key-use.js';
import { CachedKeyPolicy } from './auth/subscriptions/key-policy.js';
import { ToolDirectory, configApprovals, type CatalogueReloader } from './catalogue/directory.js';
import { watchDocuments } from './catalogue/watch.js';
import { CatalogueGenerationRepository } from './storage/catalogue-generation.js';
import { loadCatalogue } from './catalogue/load.js';
import { checkCatalogue, toolCounts } from './catalogue/reload-guard.js';
import { applyToolSettings, type ToolSettingsMap } from './catalogue/tool-settings.js';
import { ToolSettingsRepository } from './storage/tool-settings.js';
import type { Catalogue } from './catalogue/types.js';
import { identityHeaders } from './forwarding/identity.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics.js';
import { ArgumentValidator } from './mcp/arguments.js';
import { Dispatcher } from './mcp/dispatch.js';
import { registerMcpEndpoint, registerUnknownBundleRoute } from './mcp/endpoint.js';
import { Bundles, bundleMetadataUrl, bundleResourceUrl } from './federation/bundles.js';
import { upstreamIdentity, type CredentialProvider } from './federation/identity.js';
import { configuredDelegation } from './federation/delegation/configured.js';
import { FederatedCatalogs } from './federation/federated-catalogs.js';
import { tokenExchangeProvider } from './federation/token-exchange.js';
import { mcpRefusalRenderer } from './mcp/refusal-format.js';
import { ToolCalls } from './mcp/tool-calls.js';
import { ToolListing } from './mcp/tool-listing.js';
import { createRateLimiter, type RateLimiter } from './ratelimit/limiter.js';
import { ApprovalRepository } from './storage/approvals.js';
import { ToolPinRepository } from './storage/tool-pins.js';
import { BackendClient } from './upstream/backend-client.js';
import type { IdentityForwarder } from './upstream/identity.js';
import { UsageRecorder } from './usage/recorder.js';
import { UsageStore } from './usage/store.js';
import { Governance, type GovernanceServices } from './governance/pipeline.js';
import { moneyKey } from './governance/call.js';
import { convertMoney } from './governance/money.js';
import { createConsentService } from './governance/consent/service.js';
import { openBudgetLedger } from './governance/budgets/open.js';
import { RequestStateSigner } from './governance/request-state.js';
import { AuditEvidence } from './storage/governance-evidence.js';
import type { MoneyLocation } from '../config/gateway-mcp.js';
import {
  openConfiguredUpstreams,
  openFederation,
  type Federation,
  type UpstreamOpener,
} from './federation/federation.js';

export const GATEWAY_JWKS_PATH = '/.well-known/jwks.json';

export interface GatewayStores {
  readonly db: Database;
  /** The shared Redis (readiness; the rate limiter keeps its own connection to the same server). */
  readonly redis?: RedisClient | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The governance rules in force on this replica (issue 25); the call path reads `current()`. */
    governor?: LiveGovernor;
    /** The upstream MCP servers (issue 28), when a backend is one: their clients and their tools. */
    federation?: Federation;
  }
}

export interface CreateGatewayOptions {
  readonly config: FrozenConfig;
  readonly logger: Logger;
  readonly stores: GatewayStores;
  /** A prebuilt catalogue (tests, benchmarks); otherwise loaded from `gateway.backends`. */
  readonly catalogue?: Catalogue | undefined;
  /** Replaces the configured gatekeeper (tests of the transport and dispatch without keys). */
  readonly gatekeeper?: Gatekeeper | undefined;
  /**
   * Governed actions built by the caller (tests with doubles of the policy, consent and budgets);
   * otherwise built from configuration.
   */
  readonly governance?: ((stores: GatewayStores) => GovernanceServices) | undefined;
  /** Opens the upstream MCP servers' clients (tests with scripted upstreams); otherwise the real ones. */
  readonly openUpstreams?: UpstreamOpener<FrozenConfig['gateway']['backends'][number]> | undefined;
}

export async function createGateway(options: CreateGatewayOptions): Promise<FastifyInstance> {
  const { config, logger, stores } = options;
  const gateway = config.gateway;
  const settings = resolveIdentitySettings(config);
  const closers: (() => unknown)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close();
  };
  try {
    const metrics = gateway.metrics.enabled
      ? createGatewayMetrics({
          path: gateway.metrics.path,
          mcpPath: gateway.mcp.path,
          subscriptionLabels: gateway.metrics.subscriptionLabels,
        })
      : undefined;
    if (metrics) closers.push(() => metrics.close());
    metrics?.approvals.watch(stores.db);
    const identity = await openLiveIdentity(config, logger, stores.db, settings, {
      onLoaded: () => metrics?.identityKeys.refreshed('ok'),
      onError: (error) => {
        metrics?.identityKeys.refreshed('failed');
        logger.warn(
          { code: error.code, reason: error.message },
          'identity provider keys could not be refreshed',
        );
      },
    });
    closers.push(() => identity.close());
    const governor = await openLiveGovernor({
      db: stores.db,
      governance: gateway.governance,
      policies: gateway.policies,
      logger,
    });
    closers.push(() => governor.close());
    const gatekeeper =
      options.gatekeeper ??
      (await configuredGatekeeper(config, logger, stores.db, settings, identity, metrics, closers));

    const readiness: ReadinessCheck[] = [{ name: 'database', check: () => stores.db.ping() }];
    const redis = stores.redis;
    // Redis holds only the quota counters, and gateway.rateLimit.onStoreFailure says whether the gateway
    // serves without it (fallback, open) or not (closed): readiness follows that policy, so an outage the
    // gateway is built to survive does not take every replica out of the load balancer.
    if (redis)
      readiness.push({
        name: 'redis',
        check: async () => void (await redis.ping()),
        onFailure: gateway.rateLimit.onStoreFailure === 'closed' ? 'required' : 'degraded',
      });
    const app = createHttpApp({
      logger,
      bodyLimitBytes: gateway.bodyLimitBytes,
      requestTimeoutMs: gateway.requestTimeoutMs,
      keepAliveTimeoutMs: gateway.keepAliveTimeoutMs,
      readiness,
      renderRefusal: mcpRefusalRenderer(gateway.mcp.path),
    });
    // Fastify runs onClose hooks only once the HTTP server has closed: every client connection has ended
    // (answered, or cut when shutdown.graceMs ran out). An upstream call still outstanding then has
    // nobody left to answer, and closing the pools gracefully would wait for its timeouts (up to totalMs,
    // far past the grace period), so the pools are destroyed instead (see clients below).
    app.addHook('onClose', closeAll);
    app.decorate('governor', governor);

    const generations = new CatalogueGenerationRepository(stores.db);
    const configured = options.catalogue
      ? {
          catalogue: options.catalogue,
          configApproved: configApprovals(options.catalogue, gateway.backends),
        }
      : await configuredCatalogue(config, logger, stores.db, null, false);
    const catalogue = configured.catalogue;
    // What `toolgate tools reload` compares a new catalogue with, until a reload records its own.
    if (!options.catalogue)
      await generations.recordIfAbsent(toolCounts(catalogue, gateway.backends));
    // Upstream MCP servers (issue 28): opened once, their tools served beside the OpenAPI ones.
    const served: { directory?: ToolDirectory } = {};
    const federation = await openFederation({
      backends: gateway.backends,
      logger,
      openUpstreams: options.openUpstreams ?? openConfiguredUpstreams,
      reserved: () => (served.directory?.base ?? catalogue).byName,
      settings: 'settings' in configured ? configured.settings : undefined,
    });
    if (federation) closers.push(() => federation.close());
    if (federation) app.decorate('federation', federation);
    if (federation) metrics?.circuits.watch(() => federation.upstreams.values());
    const directory = new ToolDirectory(
      catalogue,
      configured.configApproved,
      new ApprovalRepository(stores.db),
      gateway.mcp.approvalRefreshMs,
      Date.now,
      // A catalogue given by the caller (tests, benchmarks) is fixed; one built from configuration is
      // rebuilt when an operator asks (toolgate tools reload, or the document watch below).
      options.catalogue
        ? undefined
        : catalogueReloader(config, logger, stores.db, generations, federation),
      // Pinned definitions (issue 25): a configured tool whose definition changed is held back.
      options.catalogue ? undefined : new ToolPinRepository(stores.db),
      (error) =>
        logger.error(
          { reason: error instanceof Error ? error.message : String(error) },
          'pinning tool definitions failed: retried on the next approval refresh',
        ),
      federation?.tools,
    );
    served.directory = directory;
    await directory.refresh(true);
    if (gateway.mcp.watchDocuments && !options.catalogue) {
      const watch = watchDocuments({
        backends: gateway.backends,
        logger,
        generations,
        served: () => directory.catalogue,
        maxLoss: gateway.mcp.reloadMaxLoss,
      });
      closers.push(() => watch.close());
    }

    const bundles = new Bundles(gateway.bundles, gateway.products, directory);

    const usage = gateway.usage.enabled
      ? usageRecorder(stores.db, logger, (name) => directory.catalogue.byName.has(name))
      : undefined;
    if (usage) {
      usage.start(gateway.usage.flushMs);
      closers.push(() => usage.close());
    }

    const clients = new Map(
      gateway.backends.flatMap((b) =>
        b.baseUrl === undefined ? [] : [[b.name, new BackendClient({ ...b, baseUrl: b.baseUrl })]],
      ),
    );
    closers.push(() => Promise.all([...clients.values()].map((c) => c.destroy())));
    const signer = await loadAssertionSigner(config);
    const listing = new ToolListing({
      directory,
      pageSize: gateway.mcp.pageSize,
      schemaView: gateway.mcp.schemaView,
    });
    // Upstream MCP servers (issue 28): the credentials each request there carries for its caller; with
    // identity mode delegation, the users' own tokens there (stored encrypted, connected in the portal).
    const delegation = federation ? configuredDelegation(config, stores.db, logger) : undefined;
    const delegated: CredentialProvider | undefined =
      delegation && ((caller, backend) => delegation(caller, backend.name));
    const upstreamCredentials = federation
      ? upstreamIdentity({
          backends: gateway.backends,
          gatewayUrl: settings.baseUrl,
          signer,
          forwardClaims: () => identity.config?.forwardClaims ?? {},
          providers: { tokenExchange: exchangeProvider(gateway.backends), delegation: delegated },
        })
      : undefined;
    // Their resources and prompts, offered at /mcp and every bundle (each filters by the caller's bundle).
    const catalogs = federation
      ? new FederatedCatalogs({
          backends: gateway.backends,
          upstreams: federation.upstreams,
          pageSize: gateway.mcp.pageSize,
          identity: upstreamCredentials,
          toolBackend: (name) => directory.find(name, () => true)?.backend,
          logger,
        })
      : undefined;
    // Closed before the upstream clients (closers run in reverse).
    if (catalogs) closers.push(() => catalogs.close());
    const calls = new ToolCalls({
      directory,
      validator: new ArgumentValidator(),
      clients,
      gatekeeper,
      identity: identityForwarder(config, settings, identity, signer),
      // Upstream MCP servers (issue 28): their clients, and the credentials each call carries there.
      upstreams: federation?.upstreams,
      upstreamIdentity: upstreamCredentials,
      upstreamCredentialsRejected:
        delegation && ((caller, backend, sent) => delegation.rejected(caller, backend, sent)),
      hidden: gateway.backends.flatMap((b) => {
        const base = b.baseUrl ?? b.mcp?.url;
        if (base === undefined) return [];
        const url = new URL(base);
        return [base.replace(/\/+$/, ''), url.origin, url.host];
      }),
      governance: governanceOf(
        config,
        stores,
        options.governance?.(stores) ??
          (await configuredGovernance(config, logger, stores, governor, closers)),
        logger,
      ),
    });

    await app.register(async (scope) => {
      const metadata = protectedResourceMetadataUrls(settings.mcpUrl);
      const scopesSupported = [
        ...new Set([...gateway.auth.scopes, ...toolScopes(directory.catalogue)]),
      ];
      // Built per request: the issuer follows the identity-provider settings in force.
      const document = () =>
        buildProtectedResourceMetadata({
          resource: settings.mcpUrl,
          issuer: identity.config?.issuer ?? settings.baseUrl,
          resourceName: 'toolgate MCP gateway',
          scopesSupported,
        });
      for (const route of metadata.routes) scope.get(route, async () => document());
      // Each tool bundle is its own protected resource (RFC 9728 §3.1: `<well-known>/<mcp path>/<name>`).
      for (const name of bundles.names()) {
        const resource = bundleResourceUrl(settings.mcpUrl, name);
        const bundleDocument = () =>
          buildProtectedResourceMetadata({
            resource,
            issuer: identity.config?.issuer ?? settings.baseUrl,
            resourceName: bundles.config(name)?.title ?? `toolgate MCP gateway: ${name}`,
            scopesSupported,
          });
        scope.get(new URL(bundleMetadataUrl(settings.mcpUrl, name)).pathname, async () =>
          bundleDocument(),
        );
      }
      if (signer) scope.get(GATEWAY_JWKS_PATH, async () => signer.publicJwks());
    });
    if (metrics) {
      app.addHook('onResponse', metrics.requests.onResponse);
      await app.register(metrics.routes);
    }
    if (settings.devIdp.enabled)
      await registerDevIdentityProvider(
        app,
        config,
        settings,
        toolScopes(directory.catalogue),
        stores.db,
      );
    const endpoint = {
      gatekeeper,
      usage,
      allowedOrigins: gateway.mcp.allowedOrigins,
      allowLoopbackOrigins: gateway.mcp.allowLoopbackOrigins,
      maxBatchSize: gateway.mcp.maxBatchSize,
    };
    await registerMcpEndpoint(app, {
      ...endpoint,
      path: gateway.mcp.path,
      dispatcher: new Dispatcher(
        listing,
        calls,
        {
          name: gateway.mcp.serverName,
          instructions: gateway.mcp.instructions,
          listTtlMs: gateway.mcp.approvalRefreshMs,
        },
        catalogs,
      ),
    });
    // Tool bundles (issue 28): the same endpoint at `<mcp.path>/<name>`, narrowed to the bundle's tools.
    for (const name of bundles.names()) {
      const bundle = bundles.config(name);
      await registerMcpEndpoint(app, {
        ...endpoint,
        path: `${gateway.mcp.path}/${name}`,
        dispatcher: new Dispatcher(
          listing,
          calls,
          {
            name: `${gateway.mcp.serverName}/${name}`,
            title: bundle?.title,
            instructions: bundle?.instructions ?? gateway.mcp.instructions,
            listTtlMs: gateway.mcp.approvalRefreshMs,
          },
          catalogs,
        ),
        bundle: { name, scope: () => bundles.requireScope(name) },
      });
    }
    await registerUnknownBundleRoute(app, gateway.mcp.path, bundles.names());
    logger.info(
      { tools: directory.catalogue.tools.length, backends: gateway.backends.map((b) => b.name) },
      'tool catalogue loaded',
    );
    return app;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/**
 * The policy, consent and budget services as configured: the live rules (opened above), the approvals
 * store, the budget ledger on the quotas' store, money converted at gateway.governance's rates.
 */
async function configuredGovernance(
  config: FrozenConfig,
  logger: Logger,
  stores: GatewayStores,
  governor: LiveGovernor,
  closers: (() => unknown)[],
): Promise<GovernanceServices> {
  const ledger = await openBudgetLedger(config, { logger });
  closers.push(() => ledger.close());
  const settings = config.gateway.governance;
  return {
    governor,
    consent: createConsentService({ db: stores.db, config, logger }),
    ledger,
    convert: (amount, currency) => convertMoney(amount, currency, settings),
  };
}

/**
 * Governed actions (issue 25) over the policy, consent and budget services: the money-moving tools from
 * gateway.backends[].tools.<operationId>.money, the requestState key, the evidence in the audit chain.
 */
function governanceOf(
  config: FrozenConfig,
  stores: GatewayStores,
  services: GovernanceServices,
  logger: Logger,
): Governance {
  const money = new Map<string, MoneyLocation>();
  for (const backend of config.gateway.backends)
    for (const [operationId, override] of Object.entries(backend.tools))
      if (override.money !== undefined)
        money.set(
          moneyKey({ backend: backend.name, operationId, name: operationId }),
          override.money,
        );
  const secret = config.gateway.mcp.requestStateSecret;
  const pepper = config.gateway.auth.subscriptionKeys.pepper;
  if (!RequestStateSigner.shared(secret, pepper))
    logger.warn(
      'neither gateway.mcp.requestStateSecret nor a subscription key pepper is set: consent round trips (requestState) verify on this replica only',
    );
  return new Governance({
    ...services,
    evidence: services.evidence ?? new AuditEvidence(stores.db),
    signer: RequestStateSigner.fromSecrets(secret, pepper),
    money,
  });
}

/** Subscription keys, user tokens (when an identity provider is configured) and quotas. */
async function configuredGatekeeper(
  config: FrozenConfig,
  logger: Logger,
  db: Database,
  settings: IdentitySettings,
  identity: LiveIdentityProvider,
  metrics: GatewayMetrics | undefined,
  closers: (() => unknown)[],
): Promise<Gatekeeper> {
  const auth = config.gateway.auth;
  const store = new SubscriptionStore(db, auth.subscriptionKeys.pepper);
  // Key age (admin plane's rotation policy) and last use: both kept off the request path.
  const keyPolicy = new CachedKeyPolicy(db);
  await keyPolicy.refresh();
  const keyUse = new KeyUseRecorder(store);
  closers.push(() => keyUse.close());
  const limiter = await rateLimiter(config, logger, metrics);
  closers.push(() => limiter.close());
  const keys = new SubscriptionKeyAuthenticator(store, {
    environment: config.environment,
    cacheTtlMs: auth.subscriptionKeys.cacheTtlMs,
    failedAttempts: auth.subscriptionKeys.failedAttempts,
    ipv6PrefixLength: config.gateway.rateLimit.ipv6PrefixLength,
    keyPolicy,
    keyUse,
    // Failed attempts per address counted where quotas are: shared by every worker and replica (Redis).
    attempts: limiter.store,
  });
  if (identity.jwt === null)
    logger.warn('no identity provider configured (gateway.auth.jwt): every caller is anonymous');
  return createGatekeeper({
    keys,
    // Read per request: the mode and verifier in force (swapped when new settings are stored).
    get jwt() {
      return identity.jwt;
    },
    limiter,
    allowQueryKey: auth.subscriptionKeys.allowQueryParameter,
    resourceMetadataUrl: protectedResourceMetadataUrls(settings.mcpUrl).pathSuffixed,
    mcpUrl: settings.mcpUrl,
    scopes: auth.scopes,
    products: config.gateway.products,
  });
}

/**
 * The limiter keeps its own Redis connection, with its own short command timeout and circuit breaker,
 * so a slow Redis degrades quota decisions (per gateway.rateLimit.onStoreFailure) and nothing else.
 */
async function rateLimiter(
  config: FrozenConfig,
  logger: Logger,
  metrics: GatewayMetrics | undefined,
): Promise<RateLimiter> {
  // The slice was checked and completed by loadConfig; only the Redis address may come from gateway.redis.
  const rateLimit = config.gateway.rateLimit;
  const url = rateLimit.redis.url ?? config.gateway.redis.url;
  const limiter = createRateLimiter(
    { ...rateLimit, redis: { ...rateLimit.redis, ...(url === undefined ? {} : { url }) } },
    { logger, ...(metrics ? { metrics: metrics.rateLimit } : {}) },
  );
  await limiter.ready(2000);
  return limiter;
}

/** The scopes the catalogue's tools need (their union, sorted). */
function toolScopes(catalogue: Catalogue): string[] {
  return [...new Set(catalogue.tools.flatMap((tool) => tool.scopes ?? []))].sort();
}

/** Rebuilds the catalogue from the backends' documents when the stored generation moves on. */
function catalogueReloader(
  config: FrozenConfig,
  logger: Logger,
  db: Database,
  generations: CatalogueGenerationRepository,
  federation: Federation | undefined,
): CatalogueReloader {
  return {
    generation: () => generations.read(),
    load: async (current, forced) => {
      const configured = await configuredCatalogue(config, logger, db, current, forced);
      // The stored settings of upstream tools too (an admin change raises the generation).
      federation?.tools.useSettings(configured.settings);
      return configured;
    },
    failed: (generation, error) =>
      logger.error(
        { generation, reason: error instanceof Error ? error.message : String(error) },
        'catalogue reload failed: serving the previous catalogue',
      ),
    reloaded: (generation, catalogue) =>
      logger.info({ generation, tools: catalogue.tools.length }, 'catalogue reloaded'),
  };
}

/**
 * The catalogue from the backends' documents and configuration overrides, with the tool settings stored by
 * the admin API over them (catalogue/tool-settings.ts); the tools configuration approves, by their names
 * after those settings. Settings that no longer apply (a document changed under them) are logged and left
 * out rather than keeping the gateway from starting. The reload guard (catalogue/reload-guard.ts) checks
 * it against `previous` (null at startup), unless the reload was forced.
 */
async function configuredCatalogue(
  config: FrozenConfig,
  logger: Logger,
  db: Database,
  previous: Catalogue | null,
  forced: boolean,
): Promise<{
  catalogue: Catalogue;
  configApproved: ReadonlySet<string>;
  settings: ToolSettingsMap;
}> {
  const backends = config.gateway.backends;
  const base = await loadCatalogue(backends);
  if (!forced)
    checkCatalogue(
      toolCounts(base, backends),
      previous === null ? null : toolCounts(previous, backends),
      config.gateway.mcp.reloadMaxLoss,
    );
  for (const warning of base.warnings) logger.warn({ catalogue: warning }, 'catalogue');
  const approved = configApprovals(base, backends);
  let settings: ToolSettingsMap = new Map();
  try {
    settings = await new ToolSettingsRepository(db).load();
    const settled = applyToolSettings(base, settings);
    const configApproved = new Set<string>();
    for (const tool of settled.catalogue.tools)
      if (approved.has(settled.configuredName.get(tool.name) ?? tool.name))
        configApproved.add(tool.name);
    return { catalogue: settled.catalogue, configApproved, settings };
  } catch (error) {
    logger.error(
      { reason: error instanceof Error ? error.message : String(error) },
      'stored tool settings cannot be applied: serving the catalogue without them',
    );
    return { catalogue: base, configApproved: approved, settings };
  }
}

/** Usage counters per subscription, tool and minute, flushed to the gateway database. */
function usageRecorder(
  db: Database,
  logger: Logger,
  isTool: (name: string) => boolean,
): UsageRecorder {
  return new UsageRecorder({
    store: new UsageStore(db),
    isTool,
    onError: (error) =>
      logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'usage flush failed: the counts are kept for the next flush',
      ),
  });
}

/** The headers each backend gets about the caller, per its `identity` configuration. */
function identityForwarder(
  config: FrozenConfig,
  settings: IdentitySettings,
  identity: LiveIdentityProvider,
  signer: Awaited<ReturnType<typeof loadAssertionSigner>>,
): IdentityForwarder {
  const backends = new Map(config.gateway.backends.map((b) => [b.name, b]));
  return async (caller, tool) => {
    const backend = backends.get(tool.backend);
    if (!backend) return {};
    // The forwarded claims of the identity-provider settings in force.
    const forwardClaims = identity.config?.forwardClaims ?? {};
    return identityHeaders(caller, {
      // Claims configured for all backends (gateway.auth.jwt.forwardClaims), then the backend's own.
      config: { ...backend.identity, claims: { ...forwardClaims, ...backend.identity.claims } },
      backendBaseUrl: backend.baseUrl ?? backend.mcp?.url ?? settings.baseUrl,
      gatewayUrl: settings.baseUrl,
      ...(signer ? { signer } : {}),
    });
  };
}

/** RFC 8693 token exchange (federation/token-exchange.ts) for the backends in identity mode token-exchange. */
function exchangeProvider(
  backends: FrozenConfig['gateway']['backends'],
): CredentialProvider | undefined {
  if (!backends.some((b) => b.identity.mode === 'token-exchange')) return undefined;
  const exchange = tokenExchangeProvider(backends);
  return (caller, backend) => exchange(caller, backend.name);
}
