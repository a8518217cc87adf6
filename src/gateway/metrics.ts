// The gateway's Prometheus metrics: one registry per gateway, holding the process's default metrics, the
// MCP request / tool-call metrics and the rate limiter's counters, served as text at
// `gateway.metrics.path`. Labels carry methods, catalogue tool and backend names, statuses, outcomes and
// reasons only — never keys, users, IPs or tool arguments — so the endpoint leaks no identity.
import type { FastifyPluginAsync } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { clusterMetricsText, inClusterWorker, shareWithPrimary } from './cluster-metrics.js';
import { createPromRateLimitMetrics } from './ratelimit/prom-metrics.js';
import type { RateLimitMetrics } from './ratelimit/metrics.js';
import { createRequestMetrics, type RequestMetrics } from './request-metrics.js';

export interface GatewayMetrics {
  readonly rateLimit: RateLimitMetrics;
  /** MCP request and tool-call counters and latency histograms (fed by an onResponse hook). */
  readonly requests: RequestMetrics;
  /** Serves the registry at `path` (GET, text exposition format). */
  readonly routes: FastifyPluginAsync;
  close(): void;
}

export function createGatewayMetrics(path: string, mcpPath: string): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Under `--workers N`, /metrics answers for all workers together (cluster-metrics.ts).
  const worker = inClusterWorker();
  if (worker) shareWithPrimary(registry);
  return {
    rateLimit: createPromRateLimitMetrics(registry),
    requests: createRequestMetrics(registry, mcpPath),
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
