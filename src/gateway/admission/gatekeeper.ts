// The gatekeeper: the three decisions of the request path that depend on who is calling. The MCP endpoint
// asks it to identify the caller once per HTTP request, to admit each JSON-RPC message, and to authorize
// each tool call before its backend is reached. Each refusal is a GatewayError (its code gives the HTTP
// status and the JSON-RPC code), rendered once, by the endpoint.
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../caller.js';
import type { Tool } from '../catalogue/types.js';

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
}

export interface Gatekeeper {
  /** Subscription key, then user token. Throws GatewayError (401, 403, 429). */
  identify(request: InboundRequest): Promise<Caller>;
  /**
   * One JSON-RPC message against every quota that applies (per tool for a tools/call): resolves to the
   * headers for the response (RateLimit, RateLimit-Policy); throws GatewayError (429, 503).
   */
  admit(caller: Caller, tool: string | undefined): Promise<Readonly<Record<string, string>>>;
  /** A tool call about to reach its backend: the tool's security class. Throws GatewayError (401). */
  authorize(caller: Caller, tool: Tool): void;
}
