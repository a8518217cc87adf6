// The gateway's Prometheus metrics: one registry per gateway, holding the process's default metrics, the
// MCP request / tool-call metrics (per subscription too, bounded), the rate limiter's counters, the
// upstream MCP servers' circuit state, the approval backlog and the identity provider's key refreshes,
// served as text at `gateway.metrics.path`. Labels carry methods, catalogue tool and backend names,
// subscription ids (never keys), statuses, outcomes and reasons only — never keys, users, IPs or tool
// arguments — so the endpoint leaks no secret.
import type { FastifyPluginAsync } from 'fastify';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { createApprovalMetrics, type ApprovalMetrics } from './approval-metrics.js';
import { createCircuitMetrics, type CircuitMetrics } from './circuit-metrics.js';
import { clusterMetricsText, inClusterWorker, shareWithPrimary } from './cluster-metrics.js';
import { createPromRateLimitMetrics } from './ratelimit/prom-metrics.js';
import type { RateLimitMetrics } from './ratelimit/metrics.js';
import { createRequestMetrics, type RequestMetrics } from './request-metrics.js';

/** Refreshes of the identity provider's signing keys (OIDC discovery document, then its JWKS). */
export interface KeyRefreshMetrics {
  refreshed(outcome: 'ok' | 'failed'): void;
}

export interface GatewayMetricsOptions {
  readonly path: string;
  readonly mcpPath: string;
  /** gateway.metrics.subscriptionLabels: distinct subscription ids labelled (0: no such metrics). */
  readonly subscriptionLabels?: number | undefined;
}

export interface GatewayMetrics {
  readonly rateLimit: RateLimitMetrics;
  /** MCP request and tool-call counters and latency histograms (fed by an onResponse hook). */
  readonly requests: RequestMetrics;
  /** The circuit state of the upstream MCP servers, read at scrape time. */
  readonly circuits: CircuitMetrics;
  /** The approval backlog, read from the database at scrape time. */
  readonly approvals: ApprovalMetrics;
  readonly identityKeys: KeyRefreshMetrics;
  /** Serves the registry at `path` (GET, text exposition format). */
  readonly routes: FastifyPluginAsync;
  close(): void;
}

export function createGatewayMetrics(options: GatewayMetricsOptions): GatewayMetrics {
  const { path } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Under `--workers N`, /metrics answers for all workers together (cluster-metrics.ts).
  const worker = inClusterWorker();
  if (worker) shareWithPrimary(registry);
  const keyRefreshes = new Counter({
    name: 'toolgate_jwks_refreshes_total',
    help: "Refreshes of the identity provider's signing keys (discovery document and JWKS), by outcome",
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['ok', 'failed']) keyRefreshes.inc({ outcome }, 0);
  return {
    rateLimit: createPromRateLimitMetrics(registry),
    requests: createRequestMetrics(registry, options.mcpPath, options.subscriptionLabels ?? 0),
    circuits: createCircuitMetrics(registry),
    approvals: createApprovalMetrics(registry),
    identityKeys: { refreshed: (outcome) => keyRefreshes.inc({ outcome }) },
    routes: async (app) => {
      app.get(path, { logLevel: 'warn' }, async (req, reply) => {
        let text: string;
        try {
          text = worker ? await clusterMetricsText() : await registry.metrics();
        } catch (error) {
          req.log.warn({ reason: (error as Error).message }, 'metrics unavailable');
          return reply
            .code(503)
            .header('Cache-Control', 'no-store')
            .type('text/plain; charset=utf-8')
            .send('metrics unavailable: the workers could not be collected; try again\n');
        }
        return reply.header('Cache-Control', 'no-store').type(registry.contentType).send(text);
      });
    },
    close: () => registry.clear(),
  };
}
