// The gatekeeper: the three decisions of the request path that depend on who is calling, in the order the
// specification implies. The MCP endpoint asks it to identify the caller once per HTTP request (client
// address → subscription key → user token per the JWT mode), to admit each JSON-RPC message (every quota
// that applies) and to authorize each tool call before its backend is reached (the tool's security class).
// Each step either yields what the next needs or raises the one GatewayError to answer with, built from
// the decision by refusals.ts and rendered once, by the endpoint.
import type { IncomingHttpHeaders } from 'node:http';
import { authenticateRequest } from '../auth/jwt/authenticate.js';
import { isAuthError } from '../auth/jwt/errors.js';
import { missingScopes } from '../auth/jwt/scopes.js';
import type { JwtVerifier } from '../auth/jwt/verify.js';
import type { SubscriptionKeyAuthenticator } from '../auth/subscriptions/authenticate.js';
import type { Subscription } from '../auth/subscriptions/types.js';
import type { VerifiedUser } from '../auth/user.js';
import type { Caller, CallerSubscription } from '../caller.js';
import type { Tool } from '../catalogue/types.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { bundleAudiences, bundleMetadataUrl } from '../federation/bundles.js';
import {
  bundleRefusal,
  keyRefusal,
  quotaHeaders,
  quotaRefusal,
  scopeMissing,
  tokenRefusal,
  userRequired,
} from './refusals.js';

export const SUBSCRIPTION_KEY_HEADER = 'ocp-apim-subscription-key';
export const PRODUCT_PREFIX = 'product:';

/** What the gatekeeper sees of the HTTP request (framework-neutral). */
export interface InboundRequest {
  readonly requestId: string;
  readonly headers: IncomingHttpHeaders;
  /** Every Authorization header value in the order received (`headers` keeps only the first). */
  readonly authorization: readonly string[];
  /** The socket peer address (resolved through trusted proxies into the client address). */
  readonly socketAddress: string;
  /** The URL query, for a subscription key sent as a query parameter where that is enabled. */
  readonly query: Readonly<Record<string, unknown>>;
  /**
   * The tool bundle whose endpoint the request came to (`<mcp.path>/<name>`, issue 28); absent on the
   * plain MCP endpoint. It decides the audience a user token needs, the metadata URL challenges name and
   * whether a subscription limited to bundles may be used here.
   */
  readonly bundle?: string | undefined;
}

export interface Gatekeeper {
  /** Subscription key, then user token. Throws GatewayError (401, 403, 429; 503 under `closed`). */
  identify(request: InboundRequest): Promise<Caller>;
  /**
   * One JSON-RPC message against every quota that applies (per tool for a tools/call): resolves to the
   * headers for the response (RateLimit, RateLimit-Policy); throws GatewayError (429, 503).
   */
  admit(caller: Caller, tool: string | undefined): Promise<Readonly<Record<string, string>>>;
  /** A tool call about to reach its backend: the tool's security class. Throws GatewayError (401, 403). */
  authorize(caller: Caller, tool: Tool): void;
}

export interface GatekeeperOptions {
  readonly keys: SubscriptionKeyAuthenticator;
  /** null: no identity provider configured — every caller is anonymous. */
  readonly jwt: {
    readonly mode: 'conditional' | 'required' | 'anonymous';
    readonly verifier: JwtVerifier;
  } | null;
  readonly limiter: RateLimiter;
  readonly allowQueryKey: boolean;
  /** RFC 9728 metadata URL named in WWW-Authenticate challenges. */
  readonly resourceMetadataUrl: string;
  /**
   * The MCP endpoint's URL: a tool bundle's resource is `<mcpUrl>/<name>` (its audience and metadata URL,
   * federation/bundles.ts). Without it a bundle's endpoint checks tokens as the plain endpoint does.
   */
  readonly mcpUrl?: string | undefined;
  /** The scopes every sign-in asks for (gateway.auth.scopes), named in Bearer challenges. */
  readonly scopes?: readonly string[];
  /** Named sets of tools a subscription can list as `product:NAME` (gateway.products). */
  readonly products?: Readonly<Record<string, readonly string[]>>;
}

/** The configured gatekeeper: subscription keys, user tokens, quotas and security classes. */
export function createGatekeeper(options: GatekeeperOptions): Gatekeeper {
  const allowedTools = productExpansion(options.products ?? {});

  /** The user token per the JWT mode; an invalid token is a 401 with the library's reason. */
  async function authenticateUser(request: InboundRequest): Promise<VerifiedUser | null> {
    const jwt = options.jwt;
    if (jwt === null) return null;
    const { bundle } = request;
    const mcpUrl = options.mcpUrl;
    try {
      return await authenticateRequest({
        mode: jwt.mode,
        authorization: request.authorization,
        toolRequiresUser: false,
        verifier: jwt.verifier,
        ...(bundle === undefined || mcpUrl === undefined
          ? {}
          : { audiences: bundleAudiences(mcpUrl, bundle, jwt.verifier.config.audience) }),
      });
    } catch (error) {
      if (!isAuthError(error)) throw error;
      throw tokenRefusal(error, {
        resourceMetadata: metadataUrlFor(bundle),
        ...(options.scopes === undefined ? {} : { scope: options.scopes }),
      });
    }
  }

  /** The subscription as the request path needs it, products expanded into tool names. */
  function describe(subscription: Subscription): CallerSubscription {
    return {
      id: subscription.id,
      application: subscription.application,
      environment: subscription.environment,
      tools: allowedTools(subscription.tools),
      rateLimitPerMinute: subscription.rateLimitPerMinute,
    };
  }

  /** The metadata URL of the endpoint a request came to: the bundle's own, or the plain endpoint's. */
  function metadataUrlFor(bundle: string | undefined): string {
    return bundle === undefined || options.mcpUrl === undefined
      ? options.resourceMetadataUrl
      : bundleMetadataUrl(options.mcpUrl, bundle);
  }

  function presentedKey(request: InboundRequest): string | undefined {
    const header = request.headers[SUBSCRIPTION_KEY_HEADER];
    const value = Array.isArray(header) ? header[0] : header;
    if (value !== undefined) return value;
    if (!options.allowQueryKey) return undefined;
    const fromQuery = request.query['subscription-key'];
    return typeof fromQuery === 'string' ? fromQuery : undefined;
  }

  return {
    async identify(request) {
      const clientIp = options.limiter.clientIp(request.socketAddress, request.headers);
      const key = await options.keys.check(presentedKey(request), clientIp);
      if (!key.ok) throw keyRefusal(key);
      const limited = key.subscription.bundles;
      if (limited !== null && (request.bundle === undefined || !limited.includes(request.bundle)))
        throw bundleRefusal(limited, request.bundle);
      const [authorization, ...more] = request.authorization;
      return {
        requestId: request.requestId,
        clientIp,
        subscription: describe(key.subscription),
        user: await authenticateUser(request),
        ...(authorization !== undefined && more.length === 0 ? { authorization } : {}),
      };
    },

    async admit(caller, tool) {
      const limitPerMinute = caller.subscription.rateLimitPerMinute;
      const decision = await options.limiter.check({
        userId: caller.user?.subject ?? null,
        clientIp: caller.clientIp,
        subscriptionId: caller.subscription.id,
        ...(limitPerMinute === null
          ? {}
          : { subscriptionLimit: { limit: limitPerMinute, windowSeconds: 60 } }),
        ...(tool === undefined ? {} : { tool }),
      });
      const refusal = quotaRefusal(decision);
      if (refusal) throw refusal;
      return quotaHeaders(decision);
    },

    /**
     * A user-scoped tool, or one that needs scopes, needs a verified user: otherwise HTTP 401 naming the
     * scopes to ask for. A user whose token lacks a scope the tool needs: HTTP 403 insufficient_scope
     * naming them, so the client can ask for them (step-up). Both before any backend is reached.
     */
    authorize(caller, tool) {
      const needed = tool.scopes ?? [];
      const challenge = {
        resourceMetadata: metadataUrlFor(caller.bundle?.name),
        scope: [...new Set([...(options.scopes ?? []), ...needed])],
      };
      if (caller.user === null) {
        if (tool.securityClass !== 'user-scoped' && needed.length === 0) return;
        throw userRequired(tool, challenge);
      }
      const missing = missingScopes(needed, caller.user.claims);
      if (missing.length > 0) throw scopeMissing(tool, missing, challenge);
    },
  };
}

/**
 * A subscription's tools, products expanded: every approved tool ('all'), or a set of names. One set per
 * stored tools list (the subscription record is cached, so the list is the same object between reads):
 * callers of one subscription share one set, which lets tools/list key its cached pages by the set
 * (mcp/tool-listing.ts). Products are fixed at startup, so an expansion never goes stale.
 */
function productExpansion(
  products: Readonly<Record<string, readonly string[]>>,
): (tools: readonly string[] | null) => ReadonlySet<string> | 'all' {
  const expanded = new WeakMap<readonly string[], ReadonlySet<string>>();
  return (tools) => {
    if (tools === null) return 'all';
    const known = expanded.get(tools);
    if (known) return known;
    const allowed = new Set<string>();
    for (const entry of tools) {
      if (!entry.startsWith(PRODUCT_PREFIX)) allowed.add(entry);
      else for (const tool of products[entry.slice(PRODUCT_PREFIX.length)] ?? []) allowed.add(tool);
    }
    expanded.set(tools, allowed);
    return allowed;
  };
}
