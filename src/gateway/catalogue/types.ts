// The tool catalogue's types: what an OpenAPI operation becomes once the gateway offers it as an MCP tool.
export type JsonObject = Record<string, unknown>;

/** Which credentials a tool needs (spec: tool security metadata). */
export type SecurityClass = 'public' | 'user-scoped' | 'optional';

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';

/** One declared OpenAPI parameter and the tool argument that carries it. */
export interface ParameterBinding {
  /** Property name in the tool's inputSchema. */
  readonly argument: string;
  /** Name on the wire (path template variable, query key or header name). */
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  /** OpenAPI `explode` for query arrays (default true). */
  readonly explode: boolean;
}

export interface BodyBinding {
  readonly argument: string;
  readonly required: boolean;
  readonly contentType: string;
}

/** Everything upstream needs to turn validated arguments into one exact HTTP request. */
export interface OperationBinding {
  readonly method: HttpMethod;
  /** Path template relative to the backend base URL, e.g. `/payments/{externalReferenceNo}`. */
  readonly pathTemplate: string;
  readonly parameters: readonly ParameterBinding[];
  readonly body?: BodyBinding | undefined;
  /** A 2xx response is declared with a JSON media type: a success body that is not JSON is an error. */
  readonly jsonResponse?: boolean | undefined;
}

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** An upstream MCP server's tool as the gateway calls it (the catalogue name carries the backend's prefix). */
export interface McpToolBinding {
  /** The tool's name at the upstream. */
  readonly name: string;
  /** The upstream's `execution`, `icons` and `_meta` of the tool, passed on in tools/list as given. */
  readonly extra?: Readonly<Record<string, unknown>> | undefined;
}

export interface Tool {
  /** `[A-Za-z0-9_-]{1,64}`, unique across all backends. */
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  /** JSON Schema 2020-12, `type: 'object'`. */
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject | undefined;
  /**
   * Names for the `$defs` of the schemas tools/list shows (catalogue/compact.ts): the backend document's
   * component schema names, by the JSON text of each component converted as an input or output schema.
   */
  readonly schemaNames?: ReadonlyMap<string, string> | undefined;
  readonly annotations: ToolAnnotations;
  readonly securityClass: SecurityClass;
  /** Name of the backend (configuration) that serves the operation. */
  readonly backend: string;
  readonly operationId?: string | undefined;
  /** An OpenAPI backend's tool: the HTTP request it becomes. Absent for an upstream MCP server's tool. */
  readonly operation?: OperationBinding | undefined;
  /** An upstream MCP server's tool (gateway/federation): what the gateway calls there. */
  readonly mcp?: McpToolBinding | undefined;
  /**
   * Arguments an operator hid from agents (gateway.backends[].tools.<op>.hidden): not in inputSchema, sent
   * with these values on every call, whatever the agent sends.
   */
  readonly fixedArguments?: Readonly<Record<string, unknown>> | undefined;
  /**
   * OAuth scopes a user token must carry to call the tool (all of them): from the operation's OpenAPI
   * security requirement (OAuth 2 / OpenID Connect schemes) or gateway.backends[].tools.<op>.scopes.
   */
  readonly scopes?: readonly string[] | undefined;
}

/** Input of the pure mapping: one backend's already dereferenced OpenAPI document. */
export interface BackendDocument {
  readonly backend: string;
  readonly document: JsonObject;
  /** Header names the gateway injects itself (credentials): never exposed as arguments. */
  readonly injectedHeaders: readonly string[];
}

export interface Catalogue {
  /** Sorted by name (the cursor order of tools/list). */
  readonly tools: readonly Tool[];
  readonly byName: ReadonlyMap<string, Tool>;
  /** Operations skipped or renamed, and other notes for the operator's log. */
  readonly warnings: readonly string[];
}
