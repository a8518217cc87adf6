// Subscriptions: view (masked keys with their age), change tools and quota, suspend, resume, revoke,
// rotate a key (the new key is shown once).
import { Type } from '@sinclair/typebox';
import { stringEnum } from '../../../shared/json-schema/string-enum.js';
import { KEY_SLOTS, type SubscriptionStatus } from '../../auth/subscriptions/types.js';
import { route, type AdminRoute } from '../http/route.js';
import type { AdminServices } from '../services.js';
import { IdParams, listSchema, SubscriptionPatchBody, SubscriptionViewSchema } from './schemas.js';

const TAGS = ['subscriptions'];

const RotateParams = Type.Object({
  id: Type.String(),
  slot: stringEnum(KEY_SLOTS),
});

export function subscriptionRoutes(services: AdminServices): AdminRoute[] {
  const { applications, provisioning } = services;
  const statusChange = (action: string, status: SubscriptionStatus, summary: string) =>
    route({
      method: 'POST',
      path: `/subscriptions/{id}/${action}`,
      summary,
      tags: TAGS,
      params: IdParams,
      response: SubscriptionViewSchema,
      errors: [403, 404, 409],
      handle: async ({ actor, params }) => {
        await provisioning.setStatus(actor, params.id, status);
        return applications.subscription(actor, params.id);
      },
    });
  return [
    route({
      method: 'GET',
      path: '/subscriptions',
      summary: 'List subscriptions (admins: all; developers: those of their applications)',
      tags: TAGS,
      response: listSchema('subscriptions', SubscriptionViewSchema),
      handle: async ({ actor }) => ({
        subscriptions: await applications.visibleSubscriptions(actor),
      }),
    }),
    route({
      method: 'GET',
      path: '/subscriptions/{id}',
      summary: 'One subscription',
      tags: TAGS,
      params: IdParams,
      response: SubscriptionViewSchema,
      errors: [404],
      handle: ({ actor, params }) => applications.subscription(actor, params.id),
    }),
    route({
      method: 'PATCH',
      path: '/subscriptions/{id}',
      summary: 'Change the tools and/or the quota (admin)',
      tags: TAGS,
      params: IdParams,
      body: SubscriptionPatchBody,
      response: SubscriptionViewSchema,
      errors: [400, 403, 404, 409],
      handle: async ({ actor, params, body }) => {
        await provisioning.update(actor, params.id, body);
        return applications.subscription(actor, params.id);
      },
    }),
    statusChange('suspend', 'suspended', 'Suspend: keys refused with 403 until resumed (admin)'),
    statusChange('resume', 'active', 'Resume a suspended subscription (admin)'),
    statusChange('revoke', 'revoked', 'Revoke for good: keys deleted (admin)'),
    route({
      method: 'POST',
      path: '/subscriptions/{id}/keys/{slot}/rotate',
      summary: 'Replace one key; the other keeps working. The new key is shown this once.',
      tags: TAGS,
      params: RotateParams,
      response: {
        type: 'object',
        properties: {
          subscription: SubscriptionViewSchema,
          slot: { type: 'string' },
          key: { type: 'string' },
        },
      },
      errors: [400, 404, 409],
      handle: async ({ actor, params }, reply) => {
        const { key } = await provisioning.rotate(actor, params.id, params.slot);
        reply.header('Cache-Control', 'no-store');
        return {
          subscription: await applications.subscription(actor, params.id),
          slot: params.slot,
          key,
        };
      },
    }),
  ];
}
