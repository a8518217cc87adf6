// Usage: GET /usage?subscription=&tool=&window=hour|day — per subscription and tool, from the gateway's
// own usage table (UsageService; developers see their own subscriptions only).
import type { FastifyPluginAsync } from 'fastify';
import { actorOf, type AdminRouteModule } from '../http/module.js';
import { operation, queryParameter } from '../http/openapi.js';
import type { UsageService } from '../usage.js';
import { UsageReportSchema } from './live-schemas.js';

export function usageRoutes(deps: { readonly usage: UsageService }): AdminRouteModule {
  const plugin: FastifyPluginAsync = async (app) => {
    app.get('/usage', async (request) => deps.usage.report(actorOf(request), request.query));
  };
  return {
    name: 'usage',
    plugin,
    openApiPaths: {
      '/usage': {
        get: operation({
          summary:
            'Requests, quota refusals, errors and latency (avg, p50, p95) per subscription and tool over the last hour or day',
          tags: ['usage'],
          parameters: [
            queryParameter('subscription', { type: 'string' }, 'one subscription id'),
            queryParameter('tool', { type: 'string' }, 'one tool name'),
            queryParameter('window', { type: 'string', enum: ['hour', 'day'], default: 'hour' }),
          ],
          response: UsageReportSchema,
          errors: [400],
        }),
      },
    },
  };
}
