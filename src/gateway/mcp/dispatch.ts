// One JSON-RPC message → its response, for either protocol era. Legacy (2025-03-26 … 2025-11-25): a
// stateless `initialize` negotiates a version; no session is kept. Modern (2026-07-28): every request
// carries its version and capabilities in `_meta`; results carry `resultType`.
import { GatewayError } from '../errors.js';
import {
  LATEST_LEGACY,
  SUPPORTED_VERSIONS,
  isLegacyVersion,
  type JsonRpcId,
  type JsonRpcResponse,
} from './protocol.js';
import type { Caller } from '../caller.js';
import type { Tool } from '../catalogue/types.js';
import type { CallTrace, ToolCalls } from './tool-calls.js';
import type { ToolListing } from './tool-listing.js';
import type {
  CatalogAnswer,
  CatalogRequest,
  FederatedCatalogs,
  OfferedCapabilities,
} from '../federation/federated-catalogs.js';

export const SERVER_VERSION = '0.1.0';

export interface ServerIdentity {
  readonly name: string;
  /** A display name (serverInfo.title, 2025-06-18 on); a tool bundle's `title`. */
  readonly title?: string | undefined;
  readonly instructions?: string | undefined;
  /**
   * How long (ms) a 2026-07-28 client may reuse a `tools/list` page: the approval refresh interval, the
   * longest a replica takes to show an approval change (gateway.mcp.approvalRefreshMs).
   */
  readonly listTtlMs: number;
}

/** `server/discover` changes only with a new deployment (versions, capabilities, instructions). */
export const DISCOVER_TTL_MS = 300_000;

const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** The methods of the upstreams' resources and prompts (federation, issue 28), by the capability they need. */
const CATALOG_METHODS: Readonly<Record<string, keyof OfferedCapabilities>> = {
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'resources/read': 'resources',
  'prompts/list': 'prompts',
  'prompts/get': 'prompts',
};

const NONE_OFFERED: OfferedCapabilities = { resources: false, prompts: false };

export interface DispatchInput {
  readonly era: 'legacy' | 'modern';
  /** The protocol version governing this message (legacy: header or 2025-03-26; modern: `_meta`). */
  readonly version: string;
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly caller: Caller;
  readonly trace: CallTrace;
}

export interface Dispatched {
  readonly response: JsonRpcResponse;
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The catalogue tool a tools/call reached (its outcome is counted as usage), if any. */
  readonly tool?: string | undefined;
}

export class Dispatcher {
  constructor(
    private readonly listing: ToolListing,
    private readonly calls: ToolCalls,
    private readonly server: ServerIdentity,
    /** The upstream MCP servers' resources and prompts (issue 28); absent: neither is offered. */
    private readonly catalogs?: FederatedCatalogs | undefined,
  ) {}

  async dispatch(input: DispatchInput): Promise<Dispatched> {
    if (input.method === 'tools/call') return this.callTool(input);
    return this.answer(input, () => this.run(input));
  }

  /** A tools/call: the tool it names (not reached: an error), then the call (reached, whatever its end). */
  private async callTool(input: DispatchInput): Promise<Dispatched> {
    const { caller, params } = input;
    let tool: Tool;
    try {
      tool = await this.calls.resolve(caller, params);
    } catch (error) {
      return this.failure(input, error);
    }
    const answer = await this.answer(input, async () => ({
      ...(await this.calls.run(caller, tool, params, input.version, input.trace)),
    }));
    return { ...answer, tool: tool.name };
  }

  private async answer(
    input: DispatchInput,
    produce: () => Promise<Record<string, unknown>>,
  ): Promise<Dispatched> {
    try {
      const result = await produce();
      if (input.era === 'modern') this.completeModern(input, result);
      return { response: { jsonrpc: '2.0', id: input.id, result }, status: 200 };
    } catch (error) {
      return this.failure(input, error);
    }
  }

  private failure(input: DispatchInput, error: unknown): Dispatched {
    if (!(error instanceof GatewayError))
      input.trace.log?.error({ err: error }, 'mcp request failed');
    return errorResponse(input.id, error);
  }

  private async run(input: DispatchInput): Promise<Record<string, unknown>> {
    const { method, params, caller, version } = input;
    if (input.era === 'legacy') {
      switch (method) {
        case 'initialize':
          return this.initialize(params, caller);
        case 'ping':
          return {};
        case 'tools/list':
          return this.listing.list(caller, params, version);
        default:
          if (Object.hasOwn(CATALOG_METHODS, method)) return this.catalog(input);
          throw new GatewayError('METHOD_NOT_FOUND', `Method not found: ${method}`);
      }
    }
    switch (method) {
      case 'server/discover':
        return this.discover(caller);
      case 'tools/list':
        return this.listing.list(caller, params, version);
      default:
        if (Object.hasOwn(CATALOG_METHODS, method)) return this.catalog(input);
        throw new GatewayError('METHOD_NOT_FOUND_MODERN', `Method not found: ${method}`);
    }
  }

  /**
   * What a 2026-07-28 result carries besides its content: `resultType`; the server's identity in `_meta`
   * (every result); and, on the cacheable results this server gives (`server/discover`, `tools/list`), how
   * long and how widely a client may reuse them. A listing is `public` only when the subscription sees the
   * whole approved catalogue (every such caller gets the same pages); a subscription limited to some tools
   * gets a listing of its own, so `private`.
   */
  private completeModern(input: DispatchInput, result: Record<string, unknown>): void {
    // A governed call waiting for consent answers `input_required` (governance/pipeline.ts).
    if (result.resultType !== 'input_required') result.resultType = 'complete';
    const meta =
      typeof result._meta === 'object' && result._meta !== null
        ? (result._meta as Record<string, unknown>)
        : {};
    result._meta = { ...meta, [META_SERVER_INFO]: this.serverInfo() };
    if (input.method === 'server/discover') {
      result.ttlMs = DISCOVER_TTL_MS;
      // With federated resources/prompts the capabilities follow the caller's view of the upstreams.
      result.cacheScope =
        this.catalogs === undefined || input.caller.subscription.tools === 'all'
          ? 'public'
          : 'private';
    } else if (input.method === 'tools/list') {
      result.ttlMs = this.server.listTtlMs;
      result.cacheScope = input.caller.subscription.tools === 'all' ? 'public' : 'private';
    }
  }

  private serverInfo(): { name: string; version: string; title?: string } {
    const { name, title } = this.server;
    return title === undefined
      ? { name, version: SERVER_VERSION }
      : { name, title, version: SERVER_VERSION };
  }

  /**
   * `resources/*` and `prompts/*`: answered from the upstreams when the gateway declares the capability to
   * this caller, otherwise "method not found" as for any method a server does not offer. A 2026-07-28
   * result carries the caching hints the catalogs give (every list and `resources/read` is cacheable).
   */
  private async catalog(input: DispatchInput): Promise<Record<string, unknown>> {
    const capability = Object.hasOwn(CATALOG_METHODS, input.method)
      ? CATALOG_METHODS[input.method]
      : undefined;
    const offered = await this.offered(input.caller);
    if (this.catalogs === undefined || capability === undefined || !offered[capability])
      throw new GatewayError(
        input.era === 'modern' ? 'METHOD_NOT_FOUND_MODERN' : 'METHOD_NOT_FOUND',
        `Method not found: ${input.method}`,
      );
    const request: CatalogRequest = {
      caller: input.caller,
      params: input.params,
      version: input.version,
      traceparent: input.trace.traceparent,
    };
    const catalogs = this.catalogs;
    let answer: CatalogAnswer;
    switch (input.method) {
      case 'resources/list':
        answer = await catalogs.listResources(request);
        break;
      case 'resources/templates/list':
        answer = await catalogs.listResourceTemplates(request);
        break;
      case 'resources/read':
        answer = await catalogs.readResource(request);
        break;
      case 'prompts/list':
        answer = await catalogs.listPrompts(request);
        break;
      default:
        answer = await catalogs.getPrompt(request);
    }
    const result = answer.result;
    if (input.era === 'modern' && answer.ttlMs !== undefined) {
      result.ttlMs = answer.ttlMs;
      result.cacheScope = answer.cacheScope ?? 'private';
    }
    return result;
  }

  private async offered(caller: Caller): Promise<OfferedCapabilities> {
    return this.catalogs === undefined ? NONE_OFFERED : this.catalogs.capabilities(caller);
  }

  /** Stateless negotiation: echo a supported legacy version, otherwise offer the latest legacy one. */
  private async initialize(
    params: Record<string, unknown>,
    caller: Caller,
  ): Promise<Record<string, unknown>> {
    const requested = params.protocolVersion;
    if (typeof requested !== 'string')
      throw new GatewayError(
        'INVALID_PARAMS',
        'Invalid params: "protocolVersion" must be a string',
      );
    const protocolVersion = isLegacyVersion(requested) ? requested : LATEST_LEGACY;
    // No stream is kept, so nothing is announced: listChanged and subscribe are false.
    const offered = await this.offered(caller);
    const capabilities: Record<string, unknown> = { tools: { listChanged: false } };
    if (offered.resources) capabilities.resources = { subscribe: false, listChanged: false };
    if (offered.prompts) capabilities.prompts = { listChanged: false };
    const result: Record<string, unknown> = {
      protocolVersion,
      capabilities,
      serverInfo: this.serverInfo(),
    };
    if (this.server.instructions) result.instructions = this.server.instructions;
    return result;
  }

  private async discover(caller: Caller): Promise<Record<string, unknown>> {
    const offered = await this.offered(caller);
    const capabilities: Record<string, unknown> = { tools: {} };
    if (offered.resources) capabilities.resources = {};
    if (offered.prompts) capabilities.prompts = {};
    const result: Record<string, unknown> = {
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities,
      // Kept in the body for clients written against earlier drafts; the revision puts it in _meta.
      serverInfo: this.serverInfo(),
    };
    if (this.server.instructions) result.instructions = this.server.instructions;
    return result;
  }
}

export function errorResponse(id: JsonRpcId | null, error: unknown): Dispatched {
  const known =
    error instanceof GatewayError
      ? error
      : new GatewayError('INTERNAL', 'Internal error: the request could not be completed');
  const body: JsonRpcResponse = {
    jsonrpc: '2.0',
    id,
    error: {
      code: known.rpcCode,
      message: known.message,
      ...(known.data === undefined ? {} : { data: known.data }),
    },
  };
  return { response: body, status: known.httpStatus, headers: known.headers };
}
