// Usage: GET /usage?subscription=&tool=&window=hour|day — per subscription and tool, from the gateway's
// own usage table (UsageService; developers see their own subscriptions only).
import { Type } from '@sinclair/typebox';
import { route, type AdminRoute } from '../http/route.js';
import { UsageQuerySchema, type UsageService } from '../usage.js';

const Str = Type.String();
const RotationDue = Type.Union([Type.Literal('ok'), Type.Literal('warn'), Type.Literal('expired')]);
const Milliseconds = Type.Union([Type.Number(), Type.Null()]);

const UsageReportSchema = Type.Object({
  subscriptions: Type.Array(
    Type.Object({
      id: Str,
      application: Str,
      environment: Str,
      status: Str,
      rotationDue: RotationDue,
      keys: Type.Array(
        Type.Object({ slot: Str, masked: Str, ageDays: Type.Integer(), rotationDue: RotationDue }),
      ),
    }),
    { description: 'the subscriptions of the rows, with key age under the rotation policy' },
  ),
  window: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
  since: Str,
  until: Str,
  rows: Type.Array(
    Type.Object({
      subscriptionId: Str,
      tool: Str,
      requests: Type.Integer(),
      quotaRefusals: Type.Integer(),
      errors: Type.Integer(),
      latency: Type.Object({
        count: Type.Integer(),
        avgMs: Milliseconds,
        p50Ms: Milliseconds,
        p95Ms: Milliseconds,
        minMs: Milliseconds,
        maxMs: Milliseconds,
      }),
    }),
  ),
});

export function usageRoutes(services: { readonly usage: UsageService }): AdminRoute[] {
  return [
    route({
      method: 'GET',
      path: '/usage',
      summary:
        'Requests, quota refusals, errors and latency (avg, p50, p95) per subscription and tool over the last hour or day',
      tags: ['usage'],
      query: UsageQuerySchema,
      response: UsageReportSchema,
      errors: [400],
      handle: ({ actor, query }) => services.usage.report(actor, query),
    }),
  ];
}
