// Builds the gateway's request pipeline from configuration: subscription keys, user JWTs, quotas,
// the tool security class and identity forwarding, plus the routes that go with them (RFC 9728
// protected-resource metadata, the gateway's JWKS for identity assertions, the development identity
// provider, Prometheus metrics). Plugged into the MCP endpoint's seams by openGatewayService.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { FrozenConfig } from '../config/schema.js';
import type { Logger } from '../shared/log/logger.js';
import type { Database } from '../shared/db/types.js';
import { SubscriptionStore } from './auth/subscriptions/store.js';
import { SubscriptionKeyAuthenticator } from './auth/subscriptions/authenticate.js';
import { createJwtVerifier } from './auth/jwt/verify.js';
import {
  buildProtectedResourceMetadata,
  protectedResourceMetadataUrls,
} from './auth/jwt/protected-resource.js';
import { createAssertionSigner, type AssertionSigner } from './auth/assertion/sign.js';
import { createDevIdp } from './auth/dev-idp/idp.js';
import { devIdpRoutes } from './auth/dev-idp/routes.js';
import { DEV_IDP_PATH, resolveIdentitySettings } from './auth/settings.js';
import { createRateLimiter } from './ratelimit/limiter.js';
import { parseRateLimitConfig } from './ratelimit/config.js';
import { createGatewayMetrics } from './metrics.js';
import { Admission, type Refusal } from './admission/admission.js';
import { identityHeaders } from './forwarding/identity.js';
import { GatewayError } from './errors.js';
import type { Authenticator, ToolCallGuard } from './mcp/request-context.js';
import type { IdentityForwarder } from './upstream/identity.js';

export const GATEWAY_JWKS_PATH = '/.well-known/jwks.json';
const ASSERTION_KEY_FILE = 'gateway-assertion-key.json';

export interface GatewayPipeline {
  readonly authenticate: Authenticator;
  readonly guard: ToolCallGuard;
  readonly identity: IdentityForwarder;
  readonly plugins: readonly FastifyPluginAsync[];
  close(): Promise<void>;
}

export async function createGatewayPipeline(
  config: FrozenConfig,
  logger: Logger,
  deps: { readonly db: Database },
): Promise<GatewayPipeline> {
  const auth = config.gateway.auth;
  const settings = resolveIdentitySettings(config);
  const metadata = protectedResourceMetadataUrls(settings.mcpUrl);

  const store = new SubscriptionStore(deps.db, auth.subscriptionKeys.pepper);
  const keys = new SubscriptionKeyAuthenticator(store, {
    environment: config.environment,
    cacheTtlMs: auth.subscriptionKeys.cacheTtlMs,
    failedAttempts: auth.subscriptionKeys.failedAttempts,
    ipv6PrefixLength: config.gateway.rateLimit.ipv6PrefixLength,
  });
  const verifier = settings.jwt === null ? null : createJwtVerifier(settings.jwt);
  if (settings.jwt === null) {
    logger.warn('no identity provider configured (gateway.auth.jwt): every caller is anonymous');
  }
  // The limiter keeps its own Redis connection, with its own short command timeout and circuit breaker,
  // so a slow Redis degrades quota decisions (per gateway.rateLimit.onStoreFailure) and nothing else.
  const rateLimit = structuredClone(config.gateway.rateLimit) as Record<string, unknown> & {
    redis: Record<string, unknown>;
  };
  rateLimit.redis = { ...rateLimit.redis, url: rateLimit.redis.url ?? config.gateway.redis.url };
  const metrics = config.gateway.metrics.enabled
    ? createGatewayMetrics(config.gateway.metrics.path, config.gateway.mcp.path)
    : undefined;
  const limiter = createRateLimiter(parseRateLimitConfig(rateLimit), {
    logger,
    ...(metrics ? { metrics: metrics.rateLimit } : {}),
  });
  await limiter.ready(2000);
  const admission = new Admission({
    keys,
    jwt: settings.jwt === null || verifier === null ? null : { mode: settings.jwt.mode, verifier },
    limiter,
    allowQueryKey: auth.subscriptionKeys.allowQueryParameter,
    resourceMetadataUrl: metadata.pathSuffixed,
    products: config.gateway.products,
  });

  const authenticate: Authenticator = async (request) => {
    const identified = await admission.identify({
      socketAddress: request.clientIp,
      headers: request.headers,
      authorization: request.authorization,
      query: request.query,
    });
    if (!identified.ok) throw refusalError(identified.refusal);
    const caller = identified.value;
    const [authorization, ...more] = request.authorization;
    const subscription = caller.subscription;
    return {
      requestId: request.requestId,
      clientIp: caller.clientIp,
      principal:
        caller.identity.kind === 'user'
          ? { kind: 'user', subject: caller.identity.userId, claims: caller.identity.user.claims }
          : { kind: 'anonymous' },
      subscription: {
        id: subscription.id,
        application: subscription.application,
        allowedTools: admission.allowedTools(caller),
      },
      ...(authorization !== undefined && more.length === 0 ? { authorization } : {}),
      admit: async (tool) => {
        const quota = await admission.limit(caller, tool);
        if (!quota.ok) throw refusalError(quota.refusal);
        return quota.value;
      },
    };
  };

  const guard: ToolCallGuard = async (context, tool) => {
    if (tool.securityClass !== 'user-scoped') return;
    const refusal = admission.requireUser(context.principal.kind, tool.name);
    if (refusal) throw refusalError(refusal);
  };

  const signer = await assertionSignerIfNeeded(config);
  const backends = new Map(config.gateway.backends.map((b) => [b.name, b]));
  const forwardClaims = settings.jwt?.forwardClaims ?? {};
  const identity: IdentityForwarder = (context, tool) => {
    const backend = backends.get(tool.backend);
    if (!backend) return {};
    return identityHeaders(
      {
        userId: context.principal.kind === 'user' ? context.principal.subject : 'anonymous',
        claims: context.principal.kind === 'user' ? context.principal.claims : null,
        application: context.subscription?.application ?? 'unknown',
        authorization: context.authorization,
      },
      {
        // Claims configured for all backends (gateway.auth.jwt.forwardClaims), then the backend's own.
        config: { ...backend.identity, claims: { ...forwardClaims, ...backend.identity.claims } },
        backendBaseUrl: backend.baseUrl,
        gatewayUrl: settings.baseUrl,
        ...(signer ? { signer } : {}),
      },
    );
  };

  const plugins: FastifyPluginAsync[] = [
    async (app) => {
      const document = buildProtectedResourceMetadata({
        resource: settings.mcpUrl,
        issuer: settings.jwt?.issuer ?? settings.baseUrl,
        resourceName: 'toolgate MCP gateway',
      });
      for (const route of metadata.routes) app.get(route, async () => document);
      if (signer) app.get(GATEWAY_JWKS_PATH, async () => signer.publicJwks());
    },
  ];
  if (metrics) plugins.push(metrics.routes);
  if (settings.devIdp.enabled) {
    const idp = await createDevIdp({ dataDir: config.dataDir });
    const routes = devIdpRoutes(idp, { issuer: settings.devIdp.issuer });
    plugins.push(async (app) => app.register(routes, { prefix: DEV_IDP_PATH }));
  }

  return {
    authenticate,
    guard,
    identity,
    plugins,
    ...(metrics ? { onResponse: metrics.requests.onResponse } : {}),
    async close() {
      verifier?.close();
      await limiter.close();
      metrics?.close();
    },
  };
}

function refusalError(refusal: Refusal): GatewayError {
  return new GatewayError(refusal.code, refusal.message, refusal.data, refusal.headers);
}

/** The assertion signing key, when a backend uses assertion forwarding: configured, or persisted once. */
async function assertionSignerIfNeeded(config: FrozenConfig): Promise<AssertionSigner | undefined> {
  if (!config.gateway.backends.some((b) => b.identity.mode === 'assertion')) return undefined;
  const configured = config.gateway.auth.assertionKey;
  if (configured !== undefined) {
    return createAssertionSigner({ privateJwk: JSON.parse(configured) as JWK });
  }
  const file = join(config.dataDir, ASSERTION_KEY_FILE);
  try {
    return await createAssertionSigner({
      privateJwk: JSON.parse(await readFile(file, 'utf8')) as JWK,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const pair = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(pair.privateKey);
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, `${JSON.stringify(jwk)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return createAssertionSigner({ privateJwk: JSON.parse(await readFile(file, 'utf8')) as JWK });
  }
  await chmod(file, 0o600);
  return createAssertionSigner({ privateJwk: jwk });
}
