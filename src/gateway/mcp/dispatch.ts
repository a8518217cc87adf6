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
import type { CallTrace, ToolService } from './tools.js';

export const SERVER_VERSION = '0.1.0';

export interface ServerIdentity {
  readonly name: string;
  readonly instructions?: string | undefined;
}

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
}

export class Dispatcher {
  constructor(
    private readonly tools: ToolService,
    private readonly server: ServerIdentity,
  ) {}

  async dispatch(input: DispatchInput): Promise<Dispatched> {
    try {
      const result = await this.run(input);
      if (input.era === 'modern') result.resultType = 'complete';
      return { response: { jsonrpc: '2.0', id: input.id, result }, status: 200 };
    } catch (error) {
      if (!(error instanceof GatewayError))
        input.trace.log?.error({ err: error }, 'mcp request failed');
      return errorResponse(input.id, error);
    }
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
          return this.tools.list(caller, params, version);
        case 'tools/call':
          return { ...(await this.tools.call(caller, params, version, input.trace)) };
        default:
          throw new GatewayError('METHOD_NOT_FOUND', `Method not found: ${method}`);
      }
    }
    switch (method) {
      case 'server/discover':
        return this.discover();
      case 'tools/list':
        return this.tools.list(caller, params, version);
      case 'tools/call':
        return { ...(await this.tools.call(caller, params, version, input.trace)) };
      default:
        throw new GatewayError('METHOD_NOT_FOUND_MODERN', `Method not found: ${method}`);
    }
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
      serverInfo: { name: this.server.name, version: SERVER_VERSION },
    };
    if (this.server.instructions) result.instructions = this.server.instructions;
    return result;
  }

  private discover(): Record<string, unknown> {
    const result: Record<string, unknown> = {
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: { tools: {} },
      serverInfo: { name: this.server.name, version: SERVER_VERSION },
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
