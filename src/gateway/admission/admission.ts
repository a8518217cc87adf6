// Admission of an MCP request, in the order the specification implies: client IP → subscription key →
// user JWT (per mode) → tool security class → quotas. Each step either yields what the next one needs or
// a Refusal naming the GatewayError to answer with (HTTP status and JSON-RPC code follow from its code)
// and the headers to send. No backend is reached unless every step admits the request.
import type { IncomingHttpHeaders } from 'node:http';
import {
  authenticateRequest,
  ANONYMOUS_USER_ID,
  type RequestIdentity,
} from '../auth/jwt/authenticate.js';
import { isAuthError } from '../auth/jwt/errors.js';
import type { JwtVerifier } from '../auth/jwt/verify.js';
import { challengeFor, missingTokenChallenge } from '../auth/jwt/www-authenticate.js';
import type { SubscriptionKeyAuthenticator } from '../auth/subscriptions/authenticate.js';
import type { Subscription } from '../auth/subscriptions/types.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import type { GatewayErrorCode } from '../errors.js';

export const SUBSCRIPTION_KEY_HEADER = 'ocp-apim-subscription-key';

export interface Caller {
  readonly clientIp: string;
  readonly subscription: Subscription;
  readonly identity: RequestIdentity;
}

/** Why a request is refused: the GatewayError code to answer with, its message, data and headers. */
export interface Refusal {
  readonly code: GatewayErrorCode;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly data?: unknown;
}

export type Admitted<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly refusal: Refusal };

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
  /** Named sets of tools a subscription can list as `product:NAME` (gateway.products). */
  readonly products?: Readonly<Record<string, readonly string[]>>;
}

export const PRODUCT_PREFIX = 'product:';

export interface IncomingCall {
  readonly socketAddress: string;
  readonly headers: IncomingHttpHeaders;
  /** Every Authorization header of the request, from its raw headers (Node's `headers` keeps one). */
  readonly authorization?: readonly string[];
  readonly query?: Readonly<Record<string, unknown>>;
}

const KEY_CHALLENGE = 'ApiKey header="Ocp-Apim-Subscription-Key"';

export class Admission {
  constructor(private readonly options: AdmissionOptions) {}

  /** Who is calling: subscription (always required) and user (per the JWT mode). */
  async identify(call: IncomingCall): Promise<Admitted<Caller>> {
    const clientIp = this.options.limiter.clientIp(call.socketAddress, call.headers);
    const keyCheck = await this.options.keys.check(this.presentedKey(call), clientIp);
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
      return refuse(code, keyCheck.message, headers, { reason: keyCheck.code });
    }
    const jwt = this.options.jwt;
    if (jwt === null) {
      return admitted({ clientIp, subscription: keyCheck.subscription, identity: anonymous() });
    }
    try {
      const identity = await authenticateRequest({
        mode: jwt.mode,
        authorization: call.authorization ?? call.headers.authorization,
        toolRequiresUser: false,
        verifier: jwt.verifier,
      });
      return admitted({ clientIp, subscription: keyCheck.subscription, identity });
    } catch (error) {
      if (!isAuthError(error)) throw error;
      const challenge = challengeFor(error, {
        resourceMetadata: this.options.resourceMetadataUrl,
      });
      return refuse(
        'UNAUTHENTICATED',
        `Invalid or missing user token: ${error.message}`,
        { 'WWW-Authenticate': challenge },
        { reason: error.code },
      );
    }
  }

  /** The tools the caller's subscription may use ('all', or its tools with products expanded). */
  allowedTools(caller: Caller): ReadonlySet<string> | 'all' {
    const tools = caller.subscription.tools;
    if (tools === null) return 'all';
    const allowed = new Set<string>();
    for (const entry of tools) {
      if (!entry.startsWith(PRODUCT_PREFIX)) allowed.add(entry);
      else
        for (const tool of this.options.products?.[entry.slice(PRODUCT_PREFIX.length)] ?? [])
          allowed.add(tool);
    }
    return allowed;
  }

  /** Whether the caller's subscription may use a tool (unlisted tools look unknown to the caller). */
  mayUse(caller: Caller, tool: string): boolean {
    const allowed = this.allowedTools(caller);
    return allowed === 'all' || allowed.has(tool);
  }

  /** A user-scoped tool needs a verified user: otherwise HTTP 401 before any backend is reached. */
  requireUser(identityKind: RequestIdentity['kind'], tool: string): Refusal | null {
    if (identityKind === 'user') return null;
    return {
      code: 'UNAUTHENTICATED',
      message: `Tool "${tool}" acts on behalf of a user: send a valid user token in the Authorization header (Bearer).`,
      headers: {
        'WWW-Authenticate': missingTokenChallenge({
          resourceMetadata: this.options.resourceMetadataUrl,
        }),
      },
      data: { reason: 'TOKEN_MISSING', tool },
    };
  }

  /** Quotas for this request (user or IP, subscription, tool). Headers go on every response. */
  async limit(caller: Caller, tool?: string): Promise<Admitted<Readonly<Record<string, string>>>> {
    const limitPerMinute = caller.subscription.rateLimitPerMinute;
    const result = await this.options.limiter.check({
      userId: caller.identity.kind === 'user' ? caller.identity.userId : null,
      clientIp: caller.clientIp,
      subscriptionId: caller.subscription.id,
      ...(limitPerMinute === null
        ? {}
        : { subscriptionLimit: { limit: limitPerMinute, windowSeconds: 60 } }),
      ...(tool === undefined ? {} : { tool }),
    });
    if (result.status === 200 || result.error === undefined) return admitted(result.headers);
    return refuse(
      result.status === 429 ? 'RATE_LIMITED' : 'RATE_LIMIT_UNAVAILABLE',
      result.error.message,
      result.headers,
      result.error.data,
    );
  }

  private presentedKey(call: IncomingCall): string | undefined {
    const header = call.headers[SUBSCRIPTION_KEY_HEADER];
    const value = Array.isArray(header) ? header[0] : header;
    if (value !== undefined) return value;
    if (!this.options.allowQueryKey) return undefined;
    const fromQuery = call.query?.['subscription-key'];
    return typeof fromQuery === 'string' ? fromQuery : undefined;
  }
}

function anonymous(): RequestIdentity {
  return { kind: 'anonymous', userId: ANONYMOUS_USER_ID };
}

function admitted<T>(value: T): Admitted<T> {
  return { ok: true, value };
}

function refuse(
  code: GatewayErrorCode,
  message: string,
  headers: Record<string, string>,
  data?: unknown,
): Admitted<never> {
  return {
    ok: false,
    refusal: { code, message, headers, ...(data === undefined ? {} : { data }) },
  };
}
