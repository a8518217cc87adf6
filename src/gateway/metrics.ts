// The gateway's Prometheus metrics: one registry per gateway, holding the process's default metrics and
// the rate limiter's counters, served as text at `gateway.metrics.path`. Labels carry outcomes and
// reasons only — never keys, users, IPs or tool arguments — so the endpoint leaks no identity.
import type { FastifyPluginAsync } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { createPromRateLimitMetrics } from './ratelimit/prom-metrics.js';
import type { RateLimitMetrics } from './ratelimit/metrics.js';

export interface GatewayMetrics {
  readonly rateLimit: RateLimitMetrics;
  /** Serves the registry at `path` (GET, text exposition format). */
  readonly routes: FastifyPluginAsync;
  close(): void;
}

export function createGatewayMetrics(path: string): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    rateLimit: createPromRateLimitMetrics(registry),
    routes: async (app) => {
      app.get(path, { logLevel: 'warn' }, async (_req, reply) =>
        reply
          .header('Cache-Control', 'no-store')
          .type(registry.contentType)
          .send(await registry.metrics()),
      );
    },
    close: () => registry.clear(),
  };
}
