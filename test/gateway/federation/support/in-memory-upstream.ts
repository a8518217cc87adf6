// An upstream MCP server behind the UpstreamMcp interface (src/gateway/federation/contracts.ts), in memory:
// its declared capabilities, its lists and its answers are set by the test, every request is recorded, and
// it can be taken down or made to answer JSON-RPC errors. For unit tests of the resources and prompts
// catalogs; the real client is tested against real servers (sdk-upstream.ts).
import pino from 'pino';
import type { Caller } from '../../../../src/gateway/caller.js';
import {
  UpstreamError,
  type UpstreamMcp,
  type UpstreamNotification,
  type UpstreamRequestOptions,
  type UpstreamServer,
} from '../../../../src/gateway/federation/contracts.js';
import { LogCapture } from '../../../helpers/capture.js';

export interface RecordedRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly options: UpstreamRequestOptions | undefined;
}

type Answer = (
  params: Readonly<Record<string, unknown>>,
  options: UpstreamRequestOptions | undefined,
) => Record<string, unknown>;

export class InMemoryUpstream implements UpstreamMcp {
  capabilities: Record<string, unknown> = { resources: {}, prompts: {} };
  /** Items per list method (`resources/list`, `resources/templates/list`, `prompts/list`). */
  readonly lists = new Map<string, Record<string, unknown>[]>();
  /** ttlMs the upstream gives its lists; undefined: none. */
  listTtlMs: number | undefined;
  /** Answers per request method. */
  readonly answers = new Map<string, Answer>();
  /** Set: every request fails this way (the upstream is down). */
  down: UpstreamError | undefined;
  /** Set: requests answer this JSON-RPC error. */
  rpcError: { code: number; message: string } | undefined;
  circuitOpen = false;
  readonly requests: RecordedRequest[] = [];
  readonly listCalls: string[] = [];
  serverCalls = 0;
  private readonly listeners = new Set<(n: UpstreamNotification) => void>();

  constructor(readonly backend: string) {}

  async server(): Promise<UpstreamServer> {
    this.serverCalls++;
    if (this.down) throw this.down;
    return { protocolVersion: '2025-11-25', capabilities: this.capabilities };
  }

  async request(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options?: UpstreamRequestOptions,
  ): Promise<Record<string, unknown>> {
    this.requests.push({ method, params, options });
    if (this.down) throw this.down;
    if (this.rpcError)
      throw new UpstreamError(this.backend, 'rpc', this.rpcError.message, this.rpcError);
    const answer = this.answers.get(method);
    if (!answer)
      throw new UpstreamError(this.backend, 'rpc', 'Method not found', {
        code: -32601,
        message: 'Method not found',
      });
    return answer(params, options);
  }

  async listAll(method: string): Promise<{
    readonly items: readonly Record<string, unknown>[];
    readonly ttlMs?: number | undefined;
  }> {
    this.listCalls.push(method);
    if (this.down) throw this.down;
    const items = this.lists.get(method);
    if (items === undefined)
      throw new UpstreamError(this.backend, 'rpc', 'Method not found', {
        code: -32601,
        message: 'Method not found',
      });
    return { items: [...items], ttlMs: this.listTtlMs };
  }

  onNotification(listener: (notification: UpstreamNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(method: string): void {
    for (const l of this.listeners) l({ method });
  }

  takeDown(reason: 'unavailable' | 'timeout' = 'unavailable'): void {
    this.down = new UpstreamError(
      this.backend,
      reason,
      `connect ECONNREFUSED (http://10.0.0.9:7001/mcp)`,
    );
  }

  async close(): Promise<void> {}
}

/** An MCP backend's configuration as the catalogs read it (the schema's defaults where not given). */
export function mcpBackend(
  name: string,
  options: {
    resources?: string[];
    prompts?: 'all' | string[];
    toolPrefix?: string;
    listTtlMs?: number;
    url?: string;
  } = {},
) {
  return {
    name,
    mcp: {
      url: options.url ?? `http://10.0.0.9:7001/${name}/mcp`,
      listTtlMs: options.listTtlMs ?? 60_000,
      ...(options.toolPrefix === undefined ? {} : { toolPrefix: options.toolPrefix }),
      resources: { approve: options.resources ?? [] },
      prompts: { approve: options.prompts ?? [] },
    },
  };
}

export function testCaller(
  tools: ReadonlySet<string> | 'all' = 'all',
  bundle?: Caller['bundle'],
): Caller {
  return {
    requestId: 'r1',
    clientIp: '127.0.0.1',
    subscription: {
      id: 'sub-1',
      application: 'agent',
      environment: 'development',
      tools,
      rateLimitPerMinute: null,
    },
    user: null,
    ...(bundle === undefined ? {} : { bundle }),
  };
}

export function bundleScope(resources: string[], prompts: string[] = []): Caller['bundle'] {
  return { name: 'team', tools: new Set(), resources, prompts: new Set(prompts) };
}

export function capturedLogger(): { logger: pino.Logger; capture: LogCapture } {
  const capture = new LogCapture();
  return { logger: pino({ level: 'debug' }, capture), capture };
}
