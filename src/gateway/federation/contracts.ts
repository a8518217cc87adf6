// Federation (issue 28): the shapes its parts share. The gateway is an MCP client of each upstream MCP
// server (`gateway.backends[].mcp`): mcp-client.ts speaks to one upstream; the upstream catalogue
// (catalogue.ts) turns its tool lists into catalogue tools beside the OpenAPI ones; calls.ts carries a
// tools/call there; resources.ts and prompts.ts offer the upstreams' resources and prompts; identity.ts
// says what credentials each call carries (none, identity headers, the caller's token, an RFC 8693
// exchanged token, or the user's own delegated token). docs/configuration.md, "Federating MCP servers".
import type { Caller } from '../caller.js';
import type { Tool } from '../catalogue/types.js';

/** Why a request to an upstream MCP server did not get an answer (or got one the gateway cannot use). */
export type UpstreamFailure =
  /** Connection refused or reset, DNS, TLS: nothing answered. */
  | 'unavailable'
  /** No complete answer within the backend's timeouts. */
  | 'timeout'
  /** The upstream's circuit breaker is open after repeated failures: not tried. */
  | 'circuit_open'
  /** An answer that is not MCP (wrong status, content type, JSON, no response to the request id). */
  | 'protocol'
  /** An answer over the backend's maxResponseBytes. */
  | 'too_large'
  /** HTTP 401/403 from the upstream: the credentials sent were not accepted. */
  | 'unauthorized'
  /** A JSON-RPC error object answered the request. */
  | 'rpc';

/** Every failure of a request to an upstream; `message` is safe to log (no credentials). */
export class UpstreamError extends Error {
  constructor(
    readonly backend: string,
    readonly reason: UpstreamFailure,
    message: string,
    /** reason 'rpc': the upstream's error object. */
    readonly rpc?: { readonly code: number; readonly message: string; readonly data?: unknown },
    /** reason 'unauthorized': the upstream's WWW-Authenticate header (RFC 6750 / RFC 9728 discovery). */
    readonly wwwAuthenticate?: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface UpstreamRequestOptions {
  /**
   * Headers for this request only (the user's credentials): they select the upstream session too, so two
   * credentials never share one.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly signal?: AbortSignal | undefined;
  /** W3C trace context passed on. */
  readonly traceparent?: string | undefined;
}

/** What the upstream declared (initialize result or server/discover). */
export interface UpstreamServer {
  /** The revision spoken with it. */
  readonly protocolVersion: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly serverInfo?: Readonly<Record<string, unknown>> | undefined;
  readonly instructions?: string | undefined;
}

/** A JSON-RPC notification the upstream sent (in an SSE stream of one of its answers). */
export interface UpstreamNotification {
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * One upstream MCP server, as a client of it (upstream/mcp-client.ts). Requests are JSON-RPC over
 * Streamable HTTP; the revision is negotiated once (or pinned by `mcp.protocolVersion`); a session is kept
 * per distinct credential where the upstream requires one, and re-established when the upstream forgets it
 * (404). Every failure is an UpstreamError.
 */
export interface UpstreamMcp {
  readonly backend: string;
  /** Negotiates (first use) and answers what the upstream declared. */
  server(options?: UpstreamRequestOptions): Promise<UpstreamServer>;
  /** One request; its `result` object. `_meta` for the negotiated revision is added here. */
  request(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options?: UpstreamRequestOptions,
  ): Promise<Record<string, unknown>>;
  /** Every page of a list method (`tools/list`, `resources/list`, ...), concatenated, and its ttlMs if any. */
  listAll(
    method: string,
    key: string,
    options?: UpstreamRequestOptions,
  ): Promise<{
    readonly items: readonly Record<string, unknown>[];
    readonly ttlMs?: number | undefined;
  }>;
  /** Called for each notification seen in any answer's stream (`notifications/tools/list_changed`, ...). */
  onNotification(listener: (notification: UpstreamNotification) => void): () => void;
  /** Whether the circuit breaker is open now (calls are refused without trying). */
  readonly circuitOpen: boolean;
  /** The breaker's state for /metrics (absent: read from `circuitOpen`, closed or open). */
  readonly circuitState?: 'closed' | 'half-open' | 'open';
  close(): Promise<void>;
}

/**
 * The tools of the upstream MCP servers, as catalogue tools (prefixed, overridden, approved by
 * configuration), kept fresh in the background. The tool directory merges them with the OpenAPI tools.
 */
export interface FederatedTools {
  /** Moves whenever `tools()` or `approved()` would answer differently. */
  readonly revision: number;
  /** The upstream tools offered now (an upstream that is down offers none). */
  tools(): readonly Tool[];
  /** Which of them configuration approves (`gateway.backends[].approve`). */
  approved(): ReadonlySet<string>;
  /** Starts refreshing the lists that are stale (ttl passed, list_changed seen); never throws, never waits. */
  poke(): void;
  /** Per upstream: whether its list is served, and why not (`toolgate tools`, logs, readiness detail). */
  status(): readonly UpstreamStatus[];
}

export interface UpstreamStatus {
  readonly backend: string;
  readonly state: 'ok' | 'down' | 'loading';
  readonly tools: number;
  readonly reason?: string | undefined;
  readonly protocolVersion?: string | undefined;
  readonly refreshedAt?: string | undefined;
}

/**
 * The credentials one call to an upstream carries for the caller (identity.ts), or the sign-in the user
 * must complete first (identity mode delegation, before the user's first call).
 */
export type UpstreamCredentials =
  | { readonly kind: 'headers'; readonly headers: Readonly<Record<string, string>> }
  | {
      readonly kind: 'sign-in';
      readonly backend: string;
      /** The gateway page that starts the upstream's authorization flow for this user. */
      readonly url: string;
      /** Shown to the user: which service and why. */
      readonly message: string;
      /** Stable per user and backend (the URL-mode elicitation id). */
      readonly elicitationId: string;
    };

export type UpstreamIdentity = (caller: Caller, backend: string) => Promise<UpstreamCredentials>;

/** The answer of a tools/call at an upstream, as the gateway passes it on. */
export type UpstreamCallOutcome =
  | {
      readonly kind: 'result';
      readonly content: readonly Record<string, unknown>[];
      readonly structuredContent?: Record<string, unknown> | undefined;
      readonly isError: boolean;
    }
  | { readonly kind: 'failure'; readonly reason: UpstreamFailure; readonly message: string };
