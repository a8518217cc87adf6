// The gateway's one error class: a typed code that maps to a JSON-RPC error code and an HTTP status
// (docs/errors.md). Messages are safe to show to clients: no stack traces, no internal addresses.
export type GatewayErrorCode =
  | 'PARSE_ERROR'
  | 'INVALID_REQUEST'
  | 'METHOD_NOT_FOUND'
  | 'METHOD_NOT_FOUND_MODERN'
  | 'INVALID_PARAMS'
  | 'INVALID_REQUEST_META'
  | 'UNKNOWN_TOOL'
  | 'INVALID_CURSOR'
  | 'INTERNAL'
  | 'HEADER_MISMATCH'
  | 'MISSING_CLIENT_CAPABILITY'
  | 'UNSUPPORTED_PROTOCOL_VERSION'
  | 'ORIGIN_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'HEADERS_TOO_LARGE'
  | 'URI_TOO_LONG'
  | 'REQUEST_TIMEOUT'
  | 'SHUTTING_DOWN'
  | 'BATCH_NOT_SUPPORTED'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'RATE_LIMIT_UNAVAILABLE'
  | 'BUDGET_UNAVAILABLE'
  | 'CATALOGUE_LOAD_FAILED'
  | 'URL_ELICITATION_REQUIRED'
  | 'UNKNOWN_RESOURCE'
  | 'UNKNOWN_PROMPT'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  | 'UNKNOWN_BUNDLE';

interface Mapping {
  readonly rpc: number;
  readonly http: number;
}

/** JSON-RPC code and HTTP status per error code. Application codes live outside -32768..-32000. */
export const GATEWAY_ERRORS: Readonly<Record<GatewayErrorCode, Mapping>> = {
  PARSE_ERROR: { rpc: -32700, http: 400 },
  INVALID_REQUEST: { rpc: -32600, http: 400 },
  METHOD_NOT_FOUND: { rpc: -32601, http: 200 },
  METHOD_NOT_FOUND_MODERN: { rpc: -32601, http: 404 },
  INVALID_PARAMS: { rpc: -32602, http: 200 },
  INVALID_REQUEST_META: { rpc: -32602, http: 400 },
  UNKNOWN_TOOL: { rpc: -32602, http: 200 },
  INVALID_CURSOR: { rpc: -32602, http: 200 },
  INTERNAL: { rpc: -32603, http: 500 },
  HEADER_MISMATCH: { rpc: -32020, http: 400 },
  MISSING_CLIENT_CAPABILITY: { rpc: -32021, http: 400 },
  UNSUPPORTED_PROTOCOL_VERSION: { rpc: -32022, http: 400 },
  ORIGIN_NOT_ALLOWED: { rpc: -31003, http: 403 },
  NOT_ACCEPTABLE: { rpc: -31006, http: 406 },
  UNSUPPORTED_MEDIA_TYPE: { rpc: -31015, http: 415 },
  PAYLOAD_TOO_LARGE: { rpc: -31013, http: 413 },
  HEADERS_TOO_LARGE: { rpc: -31031, http: 431 },
  URI_TOO_LONG: { rpc: -31014, http: 414 },
  REQUEST_TIMEOUT: { rpc: -31008, http: 408 },
  SHUTTING_DOWN: { rpc: -31054, http: 503 },
  BATCH_NOT_SUPPORTED: { rpc: -32600, http: 400 },
  UNAUTHENTICATED: { rpc: -31001, http: 401 },
  FORBIDDEN: { rpc: -31002, http: 403 },
  RATE_LIMITED: { rpc: -31029, http: 429 },
  RATE_LIMIT_UNAVAILABLE: { rpc: -31053, http: 503 },
  BUDGET_UNAVAILABLE: { rpc: -31055, http: 503 },
  CATALOGUE_LOAD_FAILED: { rpc: -32603, http: 500 },
  // MCP 2025-11-25: the call needs the user to complete a URL-mode elicitation (governance consent).
  URL_ELICITATION_REQUIRED: { rpc: -32042, http: 200 },
  // Federation (issue 28): resources/read of a URI no approved upstream offers (MCP: -32002).
  UNKNOWN_RESOURCE: { rpc: -32002, http: 200 },
  UNKNOWN_PROMPT: { rpc: -32602, http: 200 },
  // An upstream MCP server that cannot answer a resources/prompts request (down, slow, circuit open).
  UPSTREAM_UNAVAILABLE: { rpc: -31056, http: 200 },
  // An upstream MCP server answered a resources/prompts request with a JSON-RPC error (passed on, masked).
  UPSTREAM_ERROR: { rpc: -31057, http: 200 },
  // A path under the MCP endpoint that names no tool bundle (gateway.bundles).
  UNKNOWN_BUNDLE: { rpc: -31004, http: 404 },
};

export class GatewayError extends Error {
  readonly rpcCode: number;
  readonly httpStatus: number;

  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly data?: unknown,
    /** Extra HTTP response headers (e.g. WWW-Authenticate, Retry-After). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'GatewayError';
    this.rpcCode = GATEWAY_ERRORS[code].rpc;
    this.httpStatus = GATEWAY_ERRORS[code].http;
  }
}
