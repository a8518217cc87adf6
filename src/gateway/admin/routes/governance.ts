// Who am I, the key rotation policy, and the audit log (query, JSON-lines export, chain verification).
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { requireAdmin, validationError } from '../errors.js';
import { route, type AdminRoute } from '../http/route.js';
import { DEFAULT_KEY_POLICY } from '../key-policy.js';
import type { AdminServices } from '../services.js';
import {
  ActorSchema,
  AuditEntrySchema,
  KeyPolicyBody,
  KeyPolicySchema,
  listSchema,
} from './schemas.js';

const Instant = Type.Union(
  [Type.String({ format: 'date-time' }), Type.String({ format: 'date' })],
  {
    description: 'ISO 8601 date-time, or a date (midnight UTC)',
  },
);

const AuditQuery = Type.Object({
  actor: Type.Optional(Type.String({ description: 'actor subject' })),
  action: Type.Optional(Type.String({ description: 'exact action, or a prefix ending in *' })),
  target: Type.Optional(Type.String({ description: 'type:id, or an id' })),
  since: Type.Optional(Instant),
  until: Type.Optional(Instant),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  call: Type.Optional(
    Type.String({
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      description:
        "a governed call's id: that call's whole story (decision, consent, receipt, backend answer), oldest first",
    }),
  ),
});

const iso = (value: string | undefined) =>
  value === undefined ? undefined : new Date(value).toISOString();

export function governanceRoutes(services: AdminServices): AdminRoute[] {
  const { audit, keyPolicy } = services;
  return [
    route({
      method: 'GET',
      path: '/me',
      summary: 'The authenticated actor',
      tags: ['session'],
      response: ActorSchema,
      handle: ({ actor }) => actor,
    }),
    route({
      method: 'GET',
      path: '/key-policy',
      summary: 'The key rotation policy',
      tags: ['key policy'],
      response: KeyPolicySchema,
      handle: () => keyPolicy.get(),
    }),
    route({
      method: 'PUT',
      path: '/key-policy',
      summary:
        'Set the key rotation policy (admin); enforced environments refuse expired keys at the gateway',
      tags: ['key policy'],
      body: KeyPolicyBody,
      response: KeyPolicySchema,
      errors: [400, 403],
      handle: ({ actor, body }) => {
        const rotationDays = body.rotationDays ?? DEFAULT_KEY_POLICY.rotationDays;
        const warnDays = body.warnDays ?? DEFAULT_KEY_POLICY.warnDays;
        if (warnDays >= rotationDays)
          throw validationError('warnDays', 'must be less than rotationDays');
        return keyPolicy.set(actor, {
          rotationDays,
          warnDays,
          enforce: {
            development: body.enforce?.development ?? false,
            staging: body.enforce?.staging ?? false,
            production: body.enforce?.production ?? false,
          },
        });
      },
    }),
    route({
      method: 'GET',
      path: '/audit',
      summary: "Query the audit log, newest first; one governed call's story with ?call= (admin)",
      tags: ['audit'],
      query: AuditQuery,
      response: listSchema('entries', AuditEntrySchema),
      errors: [400, 403],
      handle: async ({ actor, query }) => {
        requireAdmin(actor);
        return {
          entries: await audit.query({
            actor: query.actor,
            action: query.action,
            target: query.target,
            since: iso(query.since),
            until: iso(query.until),
            limit: query.limit,
            call: query.call?.toLowerCase(),
          }),
        };
      },
    }),
    route({
      method: 'GET',
      path: '/audit/export',
      summary: 'Every entry in chain order as JSON lines (admin)',
      tags: ['audit'],
      contentType: 'application/jsonl',
      response: { type: 'string' },
      errors: [403],
      handle: ({ actor }, reply) => {
        requireAdmin(actor);
        return reply
          .type('application/jsonl')
          .header('Content-Disposition', 'attachment; filename="toolgate-audit.jsonl"')
          .send(Readable.from(audit.exportJsonLines()));
      },
    }),
    route({
      method: 'GET',
      path: '/audit/verify',
      summary: 'Recompute the hash chain (admin)',
      tags: ['audit'],
      response: Type.Object({
        ok: Type.Boolean(),
        entries: Type.Integer(),
        brokenAt: Type.Optional(Type.Integer()),
      }),
      errors: [403],
      handle: ({ actor }) => {
        requireAdmin(actor);
        return audit.verify();
      },
    }),
  ];
}
