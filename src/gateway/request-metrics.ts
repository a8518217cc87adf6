// Request and tool-call metrics of the MCP endpoint, derived from the fields each request leaves on its
// access line (src/shared/http/access-log.ts), so the log and the metrics can never disagree. Every label
// value comes from a bounded set: JSON-RPC methods outside the protocol's own count as "other", tools and
// backends are the catalogue's (unknown tool names never reach a label), outcomes are fixed words, and
// subscription ids label the per-subscription metrics only up to `gateway.metrics.subscriptionLabels`
// distinct ids (the first seen since start; later ones count as "other"), so a deployment with many
// subscriptions keeps a bounded number of series.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';

const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'server/discover',
  'notifications/initialized',
  'notifications/cancelled',
]);

/** Seconds; from a cached tools/list to a backend at its total timeout. */
const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15,
];

/** Fewer buckets than the per-method histogram: these are multiplied by the tools / subscriptions. */
const COARSE_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];

export interface RequestLabels {
  /** The JSON-RPC method (known ones), `batch`, `other`, or `none` when the body had no method. */
  readonly method: string;
  readonly status: string;
}

export interface ToolCallLabels {
  readonly tool: string;
  readonly backend: string;
  /** The caller's subscription id, when the call reached a catalogue tool (its access line names it). */
  readonly subscription?: string;
  /**
   * `ok`; `tool_error` (the backend answered 2xx but the result is an error: it broke the outputSchema);
   * `invalid_arguments` (refused before any backend call); `refused` (by the tool's security class or a
   * per-tool quota, before any backend call); `backend_4xx` / `backend_5xx` / `backend_3xx`; or the failure:
   * `timeout`, `unavailable`, `too_large`, `protocol`.
   */
  readonly outcome: string;
}

export interface RequestRecord {
  readonly request: RequestLabels;
  readonly durationSeconds: number;
  readonly toolCall?: ToolCallLabels;
  readonly upstreamSeconds?: number;
}

/** Pure: the metrics of one finished MCP request, from its access-line fields and HTTP status. */
export function recordFor(
  fields: Readonly<Record<string, unknown>> | null,
  status: number,
  elapsedMs: number,
): RequestRecord {
  const f = fields ?? {};
  const rpcMethod = f.rpcMethod;
  const method =
    f.rpcBatch !== undefined
      ? 'batch'
      : typeof rpcMethod !== 'string'
        ? 'none'
        : KNOWN_METHODS.has(rpcMethod)
          ? rpcMethod
          : 'other';
  const record: RequestRecord = {
    request: { method, status: String(status) },
    durationSeconds: elapsedMs / 1000,
  };
  if (typeof f.tool !== 'string' || typeof f.backend !== 'string') return record;
  const upstream = f.upstream;
  const outcome =
    typeof upstream === 'number'
      ? upstream >= 200 && upstream < 300
        ? f.toolError === true
          ? 'tool_error'
          : 'ok'
        : `backend_${Math.floor(upstream / 100)}xx`
      : typeof upstream === 'string'
        ? upstream.replace(/-/g, '_')
        : f.toolError === true
          ? 'invalid_arguments'
          : 'refused';
  return {
    ...record,
    toolCall: {
      tool: f.tool,
      backend: f.backend,
      outcome,
      ...(typeof f.subscription === 'string' ? { subscription: f.subscription } : {}),
    },
    ...(typeof f.upstreamMs === 'number' ? { upstreamSeconds: f.upstreamMs / 1000 } : {}),
  };
}

/** The label value "other": subscriptions beyond the labelled ones, and calls that name none. */
export const OTHER_SUBSCRIPTION = 'other';

/**
 * Which subscription ids get a label of their own: the first `limit` distinct ones seen (pure state, no
 * I/O). Ids are the gateway's own (`sub_…`), never keys; a replica restart starts a new set.
 */
export class SubscriptionLabels {
  readonly #limit: number;
  readonly #labelled = new Set<string>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  label(subscription: string | undefined): string {
    if (subscription === undefined || subscription === OTHER_SUBSCRIPTION)
      return OTHER_SUBSCRIPTION;
    if (this.#labelled.has(subscription)) return subscription;
    if (this.#labelled.size >= this.#limit) return OTHER_SUBSCRIPTION;
    this.#labelled.add(subscription);
    return subscription;
  }
}

export interface RequestMetrics {
  /** fastify `onResponse` hook for the gateway's root instance. */
  onResponse(req: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * The MCP endpoint and each tool bundle's endpoint under it (`<mcp path>/<name>`, issue 28), counted
 * together; not the catch-all that answers unknown bundle paths (404), whose paths are the client's.
 */
function isMcpRoute(url: string | undefined, mcpPath: string): boolean {
  return url === mcpPath || (url?.startsWith(`${mcpPath}/`) === true && url !== `${mcpPath}/*`);
}

export function createRequestMetrics(
  registry: Registry,
  mcpPath: string,
  subscriptionLabels = 0,
): RequestMetrics {
  const requests = new Counter({
    name: 'toolgate_mcp_requests_total',
    help: 'MCP endpoint requests by JSON-RPC method and HTTP status',
    labelNames: ['method', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'toolgate_mcp_request_duration_seconds',
    help: 'Time from request to response at the MCP endpoint, by JSON-RPC method',
    labelNames: ['method'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const toolCalls = new Counter({
    name: 'toolgate_tool_calls_total',
    help: 'tools/call by tool, backend and outcome',
    labelNames: ['tool', 'backend', 'outcome'] as const,
    registers: [registry],
  });
  const toolDurations = new Histogram({
    name: 'toolgate_tool_call_duration_seconds',
    help: 'Time from request to response of a tools/call, by tool',
    labelNames: ['tool'] as const,
    buckets: COARSE_BUCKETS,
    registers: [registry],
  });
  const upstream = new Histogram({
    name: 'toolgate_upstream_duration_seconds',
    help: 'Time of the backend call of a tools/call, by backend',
    labelNames: ['backend'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const perSubscription = subscriptionLabels > 0 ? subscriptionMetrics(registry) : undefined;
  const subscriptions = new SubscriptionLabels(subscriptionLabels);
  return {
    async onResponse(req, reply) {
      if (!isMcpRoute(req.routeOptions.url, mcpPath) || req.method !== 'POST') return;
      const record = recordFor(req.logFields, reply.statusCode, reply.elapsedTime);
      requests.inc(record.request);
      durations.observe({ method: record.request.method }, record.durationSeconds);
      if (record.toolCall) {
        const { tool, backend, outcome } = record.toolCall;
        toolCalls.inc({ tool, backend, outcome });
        toolDurations.observe({ tool }, record.durationSeconds);
        if (perSubscription) {
          const subscription = subscriptions.label(record.toolCall.subscription);
          perSubscription.calls.inc({ subscription, outcome });
          perSubscription.durations.observe({ subscription }, record.durationSeconds);
        }
      }
      if (record.toolCall && record.upstreamSeconds !== undefined)
        upstream.observe({ backend: record.toolCall.backend }, record.upstreamSeconds);
    },
  };
}

/** tools/call per subscription: rate and errors by outcome, duration of the whole request. */
function subscriptionMetrics(registry: Registry) {
  return {
    calls: new Counter({
      name: 'toolgate_subscription_tool_calls_total',
      help: 'tools/call by subscription (the first gateway.metrics.subscriptionLabels ids; then "other") and outcome',
      labelNames: ['subscription', 'outcome'] as const,
      registers: [registry],
    }),
    durations: new Histogram({
      name: 'toolgate_subscription_tool_call_duration_seconds',
      help: 'Time from request to response of a tools/call, by subscription',
      labelNames: ['subscription'] as const,
      buckets: COARSE_BUCKETS,
      registers: [registry],
    }),
  };
}
