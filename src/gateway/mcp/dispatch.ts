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
          return this.initialize(params);
        case 'ping':
          return {};
        case 'tools/list':
          return this.listing.list(caller, params, version);
        default:
          throw new GatewayError('METHOD_NOT_FOUND', `Method not found: ${method}`);
      }
    }
    switch (method) {
      case 'server/discover':
        return this.discover();
      case 'tools/list':
        return this.listing.list(caller, params, version);
      default:
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
      result.cacheScope = 'public';
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

  /** Stateless negotiation: echo a supported legacy version, otherwise offer the latest legacy one. */
  private initialize(params: Record<string, unknown>): Record<string, unknown> {
    const requested = params.protocolVersion;
    if (typeof requested !== 'string')
      throw new GatewayError(
        'INVALID_PARAMS',
        'Invalid params: "protocolVersion" must be a string',
      );
    const protocolVersion = isLegacyVersion(requested) ? requested : LATEST_LEGACY;
    const result: Record<string, unknown> = {
      protocolVersion,
      capabilities: { tools: { listChanged: false } },
      serverInfo: this.serverInfo(),
    };
    if (this.server.instructions) result.instructions = this.server.instructions;
    return result;
  }

  private discover(): Record<string, unknown> {
    const result: Record<string, unknown> = {
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: { tools: {} },
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
