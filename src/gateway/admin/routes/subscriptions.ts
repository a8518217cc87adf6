// Subscriptions: view (masked keys with their age), change tools and quota, suspend, resume, revoke,
// rotate a key (the new key is shown once).
import type { FastifyPluginAsync } from 'fastify';
import {
  KEY_SLOTS,
  type KeySlot,
  type SubscriptionStatus,
} from '../../auth/subscriptions/types.js';
import { AdminError, validationError } from '../errors.js';
import { actorOf, type AdminRouteModule } from '../http/module.js';
import { operation, pathParameter } from '../http/openapi.js';
import { validated } from '../http/validate.js';
import type { AdminServices } from '../services.js';
import type { Actor } from '../actor.js';
import { SubscriptionPatchBody, SubscriptionViewSchema } from './schemas.js';

const TAGS = ['subscriptions'];
const STATUS_OF: Record<string, SubscriptionStatus> = {
  suspend: 'suspended',
  resume: 'active',
  revoke: 'revoked',
};

export function subscriptionRoutes(services: AdminServices): AdminRouteModule {
  const { applications, provisioning } = services;
  const view = (actor: Actor, id: string) => applications.subscription(actor, id);
  const plugin: FastifyPluginAsync = async (app) => {
    app.get('/subscriptions', async (request) => ({
      subscriptions: await applications.visibleSubscriptions(actorOf(request)),
    }));
    app.get<{ Params: { id: string } }>('/subscriptions/:id', async (request) =>
      view(actorOf(request), request.params.id),
    );
    app.patch<{ Params: { id: string } }>('/subscriptions/:id', async (request) => {
      const actor = actorOf(request);
      const body = validated(SubscriptionPatchBody, request.body);
      await provisioning.update(actor, request.params.id, body);
      return view(actor, request.params.id);
    });
    app.post<{ Params: { id: string; action: string } }>(
      '/subscriptions/:id/:action',
      async (request) => {
        const status = STATUS_OF[request.params.action];
        if (status === undefined)
          throw new AdminError('NOT_FOUND', 'No route for this method and path');
        const actor = actorOf(request);
        await provisioning.setStatus(actor, request.params.id, status);
        return view(actor, request.params.id);
      },
    );
    app.post<{ Params: { id: string; slot: string } }>(
      '/subscriptions/:id/keys/:slot/rotate',
      async (request, reply) => {
        const slot = request.params.slot;
        if (!(KEY_SLOTS as readonly string[]).includes(slot))
          throw validationError('slot', 'must be primary or secondary');
        const actor = actorOf(request);
        const { key } = await provisioning.rotate(actor, request.params.id, slot as KeySlot);
        return reply
          .header('Cache-Control', 'no-store')
          .send({ subscription: await view(actor, request.params.id), slot, key });
      },
    );
  };
  const id = pathParameter('id');
  const action = (summary: string) =>
    operation({
      summary,
      tags: TAGS,
      parameters: [id],
      response: SubscriptionViewSchema,
      errors: [403, 404, 409],
    });
  return {
    name: 'subscriptions',
    plugin,
    openApiPaths: {
      '/subscriptions': {
        get: operation({
          summary: 'List subscriptions (admins: all; developers: those of their applications)',
          tags: TAGS,
          response: {
            type: 'object',
            properties: { subscriptions: { type: 'array', items: SubscriptionViewSchema } },
          },
        }),
      },
      '/subscriptions/{id}': {
        get: operation({
          summary: 'One subscription',
          tags: TAGS,
          parameters: [id],
          response: SubscriptionViewSchema,
          errors: [404],
        }),
        patch: operation({
          summary: 'Change the tools and/or the quota (admin)',
          tags: TAGS,
          parameters: [id],
          body: SubscriptionPatchBody,
          response: SubscriptionViewSchema,
          errors: [400, 403, 404, 409],
        }),
      },
      '/subscriptions/{id}/suspend': {
        post: action('Suspend: keys refused with 403 until resumed (admin)'),
      },
      '/subscriptions/{id}/resume': { post: action('Resume a suspended subscription (admin)') },
      '/subscriptions/{id}/revoke': { post: action('Revoke for good: keys deleted (admin)') },
      '/subscriptions/{id}/keys/{slot}/rotate': {
        post: operation({
          summary: 'Replace one key; the other keeps working. The new key is shown this once.',
          tags: TAGS,
          parameters: [
            id,
            { name: 'slot', in: 'path', required: true, schema: { enum: KEY_SLOTS } },
          ],
          response: {
            type: 'object',
            properties: {
              subscription: SubscriptionViewSchema,
              slot: { type: 'string' },
              key: { type: 'string' },
            },
          },
          errors: [400, 404, 409],
        }),
      },
    },
  };
}
