// The tools/call path of upstream MCP tools on its own: a ToolCalls with the real argument validator,
// gatekeeper authorization, governance pipeline and upstream identity, in front of any UpstreamMcp (the
// scripted one below, or the real client against a real SDK server).
import assert from 'node:assert/strict';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../../../src/gateway/caller.js';
import type { Tool } from '../../../../src/gateway/catalogue/types.js';
import type { ToolDirectory } from '../../../../src/gateway/catalogue/directory.js';
import { createGatekeeper } from '../../../../src/gateway/gatekeeper/gatekeeper.js';
import type { SubscriptionKeyAuthenticator } from '../../../../src/gateway/auth/subscriptions/authenticate.js';
import type { RateLimiter } from '../../../../src/gateway/ratelimit/limiter.js';
import { ArgumentValidator } from '../../../../src/gateway/mcp/arguments.js';
import { ToolCalls, type CallAnswer } from '../../../../src/gateway/mcp/tool-calls.js';
import type { Governance } from '../../../../src/gateway/governance/pipeline.js';
import {
  UpstreamError,
  type UpstreamIdentity,
  type UpstreamMcp,
  type UpstreamNotification,
  type UpstreamRequestOptions,
  type UpstreamServer,
} from '../../../../src/gateway/federation/contracts.js';

/** One request the scripted upstream received. */
export interface Received {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly options: UpstreamRequestOptions | undefined;
}

export type Script = (received: Received) => Record<string, unknown> | UpstreamError;

/**
 * An UpstreamMcp that answers each request from a script (a result, or an UpstreamError thrown as the
 * real client throws it) and keeps what it received.
 */
export class ScriptedUpstream implements UpstreamMcp {
  readonly received: Received[] = [];
  circuitOpen = false;

  constructor(
    readonly backend: string,
    public script: Script,
  ) {}

  async server(): Promise<UpstreamServer> {
    return { protocolVersion: '2025-11-25', capabilities: { tools: {} } };
  }

  async request(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options?: UpstreamRequestOptions,
  ): Promise<Record<string, unknown>> {
    const received = { method, params: structuredClone(params), options };
    this.received.push(received);
    const answer = this.script(received);
    if (answer instanceof UpstreamError) throw answer;
    return answer;
  }

  async listAll(): Promise<{ readonly items: readonly Record<string, unknown>[] }> {
    return { items: [] };
  }

  onNotification(_listener: (n: UpstreamNotification) => void): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {}
}

export const HIDDEN = ['http://10.9.8.7:3901/mcp', 'http://10.9.8.7:3901', '10.9.8.7:3901'];

export function mcpTool(partial: Partial<Tool> & { readonly name: string }): Tool {
  return {
    inputSchema: { type: 'object' },
    annotations: {},
    securityClass: 'optional',
    backend: 'up',
    mcp: { name: partial.name.replace(/^up_/, '') },
    ...partial,
  };
}

export function caller(
  user: { subject: string; claims?: Record<string, unknown> } | null = null,
  authorization?: string,
): Caller {
  return {
    requestId: 'req-1',
    clientIp: '203.0.113.7',
    subscription: {
      id: 'sub_1',
      application: 'demo-agent',
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user:
      user === null
        ? null
        : {
            subject: user.subject,
            claims: { sub: user.subject, ...user.claims },
            expiresAt: 2_000_000_000,
            tokenHash: `h-${user.subject}`,
          },
    ...(authorization === undefined ? {} : { authorization }),
  };
}

export interface Harness {
  readonly calls: ToolCalls;
  /** The access-line fields the call added. */
  readonly annotations: Record<string, unknown>[];
  readonly warnings: string[];
  run(
    tool: Tool,
    params: Record<string, unknown>,
    version?: string,
    who?: Caller,
  ): Promise<Record<string, unknown>>;
}

export function harness(options: {
  readonly upstreams: readonly UpstreamMcp[];
  readonly identity?: UpstreamIdentity;
  readonly governance?: Governance;
  /** Addresses to mask (default HIDDEN). */
  readonly hidden?: readonly string[];
}): Harness {
  const annotations: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  const calls = new ToolCalls({
    // Resolving names is the directory's business (tested with it); run() takes the tool resolved.
    directory: {} as ToolDirectory,
    validator: new ArgumentValidator(),
    clients: new Map(),
    gatekeeper: createGatekeeper({
      keys: {} as SubscriptionKeyAuthenticator,
      jwt: null,
      limiter: {} as RateLimiter,
      allowQueryKey: false,
      resourceMetadataUrl: 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp',
    }),
    identity: async () => {
      throw new Error('the HTTP identity forwarder is not used for upstream MCP tools');
    },
    hidden: options.hidden ?? HIDDEN,
    governance: options.governance,
    upstreams: new Map(options.upstreams.map((u) => [u.backend, u])),
    upstreamIdentity: options.identity ?? (async () => ({ kind: 'headers', headers: {} })),
  });
  const log = {
    warn: (_fields: unknown, message: string) => warnings.push(message),
    error: (_fields: unknown, message: string) => warnings.push(message),
  };
  return {
    calls,
    annotations,
    warnings,
    async run(tool, params, version = '2025-11-25', who = caller()) {
      const answer: CallAnswer = await calls.run(who, tool, params, version, {
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        annotate: (fields) => annotations.push({ ...fields }),
        log: log as unknown as FastifyBaseLogger,
      });
      return answer as Record<string, unknown>;
    },
  };
}

/** The first text block of a result. */
export function textOf(result: Record<string, unknown>): string {
  const content = result.content;
  assert.ok(Array.isArray(content), JSON.stringify(result));
  const first = content[0] as { type?: string; text?: string } | undefined;
  assert.equal(first?.type, 'text', JSON.stringify(result));
  return String(first?.text);
}
