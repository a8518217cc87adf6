// The request pipeline's seam for authentication, quotas and identity forwarding. The MCP transport calls
// `authenticate(request)` once per HTTP request (the credentials are the request's headers), then the
// context's `admit` once per JSON-RPC message (quotas count messages, not HTTP requests). The default
// authenticator makes every caller anonymous with access to all approved tools and no quotas.
import type { IncomingHttpHeaders } from 'node:http';
import type { Tool } from '../catalogue/types.js';

export type Principal =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'user';
      readonly subject: string;
      readonly claims: Readonly<Record<string, unknown>>;
    };

export interface Subscription {
  readonly id: string;
  readonly application: string;
  readonly allowedTools: ReadonlySet<string> | 'all';
}

export interface RequestContext {
  readonly requestId: string;
  readonly principal: Principal;
  readonly subscription?: Subscription | undefined;
  readonly clientIp: string;
  /** The caller's Authorization header, kept only for backends in `passthrough` identity mode. */
  readonly authorization?: string | undefined;
  /**
   * Admits one JSON-RPC message of this request against the caller's quotas (every message counts,
   * notifications and each message of a batch included; `tool` for a tools/call). Resolves to the
   * headers for the response (RateLimit, RateLimit-Policy); throws a GatewayError (RATE_LIMITED …) to
   * refuse that message. Absent: no quotas.
   */
  readonly admit?: (tool: string | undefined) => Promise<Readonly<Record<string, string>>>;
}

/** What an authenticator sees of the HTTP request (framework-neutral). */
export interface InboundRequest {
  readonly requestId: string;
  readonly headers: IncomingHttpHeaders;
  /** Every Authorization header value in the order received (`headers` keeps only the first). */
  readonly authorization: readonly string[];
  /** The socket peer address (the authenticator resolves the client IP through trusted proxies). */
  readonly clientIp: string;
  /** The parsed JSON-RPC body (a message or a batch), e.g. to find the tool of a tools/call. */
  readonly message: unknown;
  /** The URL query, for a subscription key sent as a query parameter where that is enabled. */
  readonly query: Readonly<Record<string, unknown>>;
}

/** Throws a GatewayError (UNAUTHENTICATED → HTTP 401, RATE_LIMITED → 429 …) to refuse the request. */
export type Authenticator = (request: InboundRequest) => Promise<RequestContext>;

export const anonymousAuthenticator: Authenticator = async (request) => ({
  requestId: request.requestId,
  principal: { kind: 'anonymous' },
  clientIp: request.clientIp,
});

/**
 * Called before a tools/call reaches the backend (after the tool is known). Throws a GatewayError to
 * refuse. The default enforces the security class: user-scoped tools need a user.
 */
export type ToolCallGuard = (context: RequestContext, tool: Tool) => Promise<void>;

/** Whether a subscription may use a tool (tools/list filtering and tools/call lookup). */
export function subscriptionAllows(context: RequestContext, toolName: string): boolean {
  const allowed = context.subscription?.allowedTools ?? 'all';
  return allowed === 'all' || allowed.has(toolName);
}
