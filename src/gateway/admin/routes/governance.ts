// Who am I, the key rotation policy, and the audit log (query, JSON-lines export, chain verification).
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin, validationError } from '../errors.js';
import { actorOf, type AdminRouteModule } from '../http/module.js';
import { operation, queryParameter } from '../http/openapi.js';
import { validated } from '../http/validate.js';
import { DEFAULT_KEY_POLICY } from '../key-policy.js';
import type { AdminServices } from '../services.js';
import { ActorSchema, AuditEntrySchema, KeyPolicyBody, KeyPolicySchema } from './schemas.js';

interface AuditQueryString {
  actor?: string;
  action?: string;
  target?: string;
  since?: string;
  until?: string;
  limit?: string;
}

export function governanceRoutes(services: AdminServices): AdminRouteModule {
  const { audit, keyPolicy } = services;
  const plugin: FastifyPluginAsync = async (app) => {
    app.get('/me', async (request) => actorOf(request));
    app.get('/key-policy', async () => keyPolicy.get());
    app.put('/key-policy', async (request) => {
      const body = validated(KeyPolicyBody, request.body);
      const rotationDays = body.rotationDays ?? DEFAULT_KEY_POLICY.rotationDays;
      const warnDays = body.warnDays ?? DEFAULT_KEY_POLICY.warnDays;
      if (warnDays >= rotationDays)
        throw validationError('warnDays', 'must be less than rotationDays');
      return keyPolicy.set(actorOf(request), {
        rotationDays,
        warnDays,
        enforce: {
          development: body.enforce?.development ?? false,
          staging: body.enforce?.staging ?? false,
          production: body.enforce?.production ?? false,
        },
      });
    });
    app.get<{ Querystring: AuditQueryString }>('/audit', async (request) => {
      requireAdmin(actorOf(request));
      const q = request.query;
      const limit = q.limit === undefined ? undefined : Number(q.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000))
        throw validationError('limit', 'must be an integer from 1 to 1000');
      for (const name of ['since', 'until'] as const)
        if (q[name] !== undefined && Number.isNaN(Date.parse(q[name])))
          throw validationError(name, 'must be an ISO 8601 date-time');
      const iso = (v: string | undefined) =>
        v === undefined ? undefined : new Date(v).toISOString();
      return {
        entries: await audit.query({
          actor: q.actor,
          action: q.action,
          target: q.target,
          since: iso(q.since),
          until: iso(q.until),
          limit,
        }),
      };
    });
    app.get('/audit/export', async (request, reply) => {
      requireAdmin(actorOf(request));
      return reply
        .type('application/jsonl')
        .header('Content-Disposition', 'attachment; filename="toolgate-audit.jsonl"')
        .send(Readable.from(audit.exportJsonLines()));
    });
    app.get('/audit/verify', async (request) => {
      requireAdmin(actorOf(request));
      return audit.verify();
    });
  };
  return {
    name: 'governance',
    plugin,
    openApiPaths: {
      '/me': {
        get: operation({
          summary: 'The authenticated actor',
          tags: ['session'],
          response: ActorSchema,
        }),
      },
      '/key-policy': {
        get: operation({
          summary: 'The key rotation policy',
          tags: ['key policy'],
          response: KeyPolicySchema,
        }),
        put: operation({
          summary:
            'Set the key rotation policy (admin); enforced environments refuse expired keys at the gateway',
          tags: ['key policy'],
          body: KeyPolicyBody,
          response: KeyPolicySchema,
          errors: [400, 403],
        }),
      },
      '/audit': {
        get: operation({
          summary: 'Query the audit log, newest first (admin)',
          tags: ['audit'],
          parameters: [
            queryParameter('actor', { type: 'string' }, 'actor subject'),
            queryParameter('action', { type: 'string' }, 'exact action, or a prefix ending in *'),
            queryParameter('target', { type: 'string' }, 'type:id, or an id'),
            queryParameter('since', { type: 'string', format: 'date-time' }),
            queryParameter('until', { type: 'string', format: 'date-time' }),
            queryParameter('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
          ],
          response: {
            type: 'object',
            properties: { entries: { type: 'array', items: AuditEntrySchema } },
          },
          errors: [400, 403],
        }),
      },
      '/audit/export': {
        get: operation({
          summary: 'Every entry in chain order as JSON lines (admin)',
          tags: ['audit'],
          contentType: 'application/jsonl',
          response: { type: 'string' },
          errors: [403],
        }),
      },
      '/audit/verify': {
        get: operation({
          summary: 'Recompute the hash chain (admin)',
          tags: ['audit'],
          response: {
            type: 'object',
            properties: {
              ok: { type: 'boolean' },
              entries: { type: 'integer' },
              brokenAt: { type: 'integer' },
            },
          },
          errors: [403],
        }),
      },
    },
  };
}
