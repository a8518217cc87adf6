// The configured gatekeeper, in the order the specification implies: client address → subscription key →
// user token (per the JWT mode) → quotas per message → the tool's security class. Each step either yields
// what the next needs or raises the GatewayError to answer with; no backend is reached unless every step
// admits the call.
import { authenticateRequest, type RequestIdentity } from '../auth/jwt/authenticate.js';
import { isAuthError } from '../auth/jwt/errors.js';
import type { JwtVerifier } from '../auth/jwt/verify.js';
import { missingScopes } from '../auth/jwt/scopes.js';
import {
  challengeFor,
  insufficientScopeChallenge,
  missingTokenChallenge,
} from '../auth/jwt/www-authenticate.js';
import type { SubscriptionKeyAuthenticator } from '../auth/subscriptions/authenticate.js';
import type { Subscription } from '../auth/subscriptions/types.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import type { Caller, CallerSubscription, CallerUser } from '../caller.js';
import type { Tool } from '../catalogue/types.js';
import { GatewayError, type GatewayErrorCode } from '../errors.js';
import type { Gatekeeper, InboundRequest } from './gatekeeper.js';

export const SUBSCRIPTION_KEY_HEADER = 'ocp-apim-subscription-key';
export const PRODUCT_PREFIX = 'product:';
const KEY_CHALLENGE = 'ApiKey header="Ocp-Apim-Subscription-Key"';

export interface AdmissionOptions {
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
  /** The scopes every sign-in asks for (gateway.auth.scopes), named in Bearer challenges. */
  readonly scopes?: readonly string[];
  /** Named sets of tools a subscription can list as `product:NAME` (gateway.products). */
  readonly products?: Readonly<Record<string, readonly string[]>>;
}

export class Admission implements Gatekeeper {
  constructor(private readonly options: AdmissionOptions) {}

  async identify(request: InboundRequest): Promise<Caller> {
    const clientIp = this.options.limiter.clientIp(request.socketAddress, request.headers);
    const keyCheck = await this.options.keys.check(this.presentedKey(request), clientIp);
    if (!keyCheck.ok) {
      const headers: Record<string, string> = {};
      if (keyCheck.status === 401) headers['WWW-Authenticate'] = KEY_CHALLENGE;
      if (keyCheck.retryAfterSeconds !== undefined)
        headers['Retry-After'] = String(keyCheck.retryAfterSeconds);
      const code: GatewayErrorCode =
        keyCheck.status === 403
          ? 'FORBIDDEN'
          : keyCheck.status === 429
            ? 'RATE_LIMITED'
            : 'UNAUTHENTICATED';
      throw new GatewayError(code, keyCheck.message, { reason: keyCheck.code }, headers);
    }
    const [authorization, ...more] = request.authorization;
    return {
      requestId: request.requestId,
      clientIp,
      subscription: this.describe(keyCheck.subscription),
      user: userOf(await this.authenticateUser(request)),
      ...(authorization !== undefined && more.length === 0 ? { authorization } : {}),
    };
  }

  async admit(caller: Caller, tool: string | undefined): Promise<Readonly<Record<string, string>>> {
    const limitPerMinute = caller.subscription.rateLimitPerMinute;
    const result = await this.options.limiter.check({
      userId: caller.user?.subject ?? null,
      clientIp: caller.clientIp,
      subscriptionId: caller.subscription.id,
      ...(limitPerMinute === null
        ? {}
        : { subscriptionLimit: { limit: limitPerMinute, windowSeconds: 60 } }),
      ...(tool === undefined ? {} : { tool }),
    });
    if (result.status === 200 || result.error === undefined) return result.headers;
    throw new GatewayError(
      result.status === 429 ? 'RATE_LIMITED' : 'RATE_LIMIT_UNAVAILABLE',
      result.error.message,
      result.error.data,
      result.headers,
    );
  }

  /**
   * A user-scoped tool, or one that needs scopes, needs a verified user: otherwise HTTP 401 naming the
   * scopes to ask for. A user whose token lacks a scope the tool needs: HTTP 403 insufficient_scope
   * naming them, so the client can ask for them (step-up). Both before any backend is reached.
   */
  authorize(caller: Caller, tool: Tool): void {
    const needed = tool.scopes ?? [];
    const scope = [...new Set([...(this.options.scopes ?? []), ...needed])];
    if (caller.user === null) {
      if (tool.securityClass !== 'user-scoped' && needed.length === 0) return;
      throw new GatewayError(
        'UNAUTHENTICATED',
        `Tool "${tool.name}" acts on behalf of a user: send a valid user token in the Authorization header (Bearer).`,
        {
          reason: 'TOKEN_MISSING',
          tool: tool.name,
          ...(needed.length > 0 ? { scope: needed } : {}),
        },
        {
          'WWW-Authenticate': missingTokenChallenge({
            resourceMetadata: this.options.resourceMetadataUrl,
            scope,
          }),
        },
      );
    }
    const missing = missingScopes(needed, caller.user.claims);
    if (missing.length === 0) return;
    const message = `Tool "${tool.name}" needs the scope ${missing.join(' ')}, which the user token does not grant: sign in again asking for it.`;
    throw new GatewayError(
      'FORBIDDEN',
      message,
      { reason: 'INSUFFICIENT_SCOPE', tool: tool.name, scope: needed },
      {
        'WWW-Authenticate': insufficientScopeChallenge(message, {
          resourceMetadata: this.options.resourceMetadataUrl,
          scope,
        }),
      },
    );
  }

  /** The user token per the JWT mode; an invalid token is a 401 with the library's reason. */
  private async authenticateUser(request: InboundRequest): Promise<RequestIdentity | null> {
    const jwt = this.options.jwt;
    if (jwt === null) return null;
    try {
      return await authenticateRequest({
        mode: jwt.mode,
        authorization: request.authorization,
        toolRequiresUser: false,
        verifier: jwt.verifier,
      });
    } catch (error) {
      if (!isAuthError(error)) throw error;
      throw new GatewayError(
        'UNAUTHENTICATED',
        `Invalid or missing user token: ${error.message}`,
        { reason: error.code },
        {
          'WWW-Authenticate': challengeFor(error, {
            resourceMetadata: this.options.resourceMetadataUrl,
            ...(this.options.scopes === undefined ? {} : { scope: this.options.scopes }),
          }),
        },
      );
    }
  }

  /** The subscription as the request path needs it, products expanded into tool names. */
  private describe(subscription: Subscription): CallerSubscription {
    return {
      id: subscription.id,
      application: subscription.application,
      environment: subscription.environment,
      tools: this.allowedTools(subscription.tools),
      rateLimitPerMinute: subscription.rateLimitPerMinute,
    };
  }

  /**
   * The expanded set per stored tools list (the subscription record is cached, so the list is the same
   * object between reads): callers of one subscription share one set, which lets tools/list key its
   * cached pages by the set (mcp/tools.ts). Products are fixed at startup, so an expansion never goes stale.
   */
  private readonly expanded = new WeakMap<readonly string[], ReadonlySet<string>>();

  private allowedTools(tools: readonly string[] | null): ReadonlySet<string> | 'all' {
    if (tools === null) return 'all';
    const known = this.expanded.get(tools);
    if (known) return known;
    const allowed = new Set<string>();
    for (const entry of tools) {
      if (!entry.startsWith(PRODUCT_PREFIX)) allowed.add(entry);
      else
        for (const tool of this.options.products?.[entry.slice(PRODUCT_PREFIX.length)] ?? [])
          allowed.add(tool);
    }
    this.expanded.set(tools, allowed);
    return allowed;
  }

  private presentedKey(request: InboundRequest): string | undefined {
    const header = request.headers[SUBSCRIPTION_KEY_HEADER];
    const value = Array.isArray(header) ? header[0] : header;
    if (value !== undefined) return value;
    if (!this.options.allowQueryKey) return undefined;
    const fromQuery = request.query['subscription-key'];
    return typeof fromQuery === 'string' ? fromQuery : undefined;
  }
}

function userOf(identity: RequestIdentity | null): CallerUser | null {
  if (identity === null || identity.kind !== 'user') return null;
  return { subject: identity.user.subject, claims: identity.user.claims };
}
