// Access requests and applications: request → approve | reject → collect keys once.
import { Type } from '@sinclair/typebox';
import { stringEnum } from '../../../shared/json-schema/string-enum.js';
import type { AdminServices } from '../services.js';
import { route, type AdminRoute } from '../http/route.js';
import {
  AccessRequestBody,
  AccessRequestSchema,
  ApplicationSchema,
  ApprovalBody,
  CollectedKeysSchema,
  IdParams,
  listSchema,
  RejectionBody,
} from './schemas.js';

const TAGS = ['access requests'];

const ListQuery = Type.Object({
  status: Type.Optional(stringEnum(['pending', 'approved', 'rejected'] as const)),
});

export function accessRequestRoutes(services: AdminServices): AdminRoute[] {
  const { accessRequests, applications } = services;
  return [
    route({
      method: 'POST',
      path: '/access-requests',
      summary: 'Request access for an application (tools, environments, justification)',
      tags: TAGS,
      body: AccessRequestBody,
      response: AccessRequestSchema,
      status: 201,
      errors: [400, 409],
      handle: ({ actor, body }) => accessRequests.create(actor, body),
    }),
    route({
      method: 'GET',
      path: '/access-requests',
      summary: 'List access requests (admins: all; developers: their own)',
      tags: TAGS,
      query: ListQuery,
      response: listSchema('accessRequests', AccessRequestSchema),
      errors: [400],
      handle: async ({ actor, query }) => ({
        accessRequests: await accessRequests.list(actor, query.status),
      }),
    }),
    route({
      method: 'GET',
      path: '/access-requests/{id}',
      summary: 'One access request',
      tags: TAGS,
      params: IdParams,
      response: AccessRequestSchema,
      errors: [404],
      handle: ({ actor, params }) => accessRequests.get(actor, params.id),
    }),
    route({
      method: 'POST',
      path: '/access-requests/{id}/approve',
      summary:
        'Approve (admin): provisions one subscription per requested environment, keys not yet minted',
      tags: TAGS,
      params: IdParams,
      body: ApprovalBody,
      bodyOptional: true,
      response: AccessRequestSchema,
      errors: [400, 403, 404, 409],
      handle: ({ actor, params, body }) => accessRequests.approve(actor, params.id, body),
    }),
    route({
      method: 'POST',
      path: '/access-requests/{id}/reject',
      summary: 'Reject with a reason (admin)',
      tags: TAGS,
      params: IdParams,
      body: RejectionBody,
      response: AccessRequestSchema,
      errors: [400, 403, 404, 409],
      handle: ({ actor, params, body }) => accessRequests.reject(actor, params.id, body.reason),
    }),
    route({
      method: 'POST',
      path: '/access-requests/{id}/keys',
      summary:
        'Collect the keys of an approved request: minted now, shown this once (requester only)',
      tags: TAGS,
      params: IdParams,
      response: CollectedKeysSchema,
      errors: [403, 404, 409],
      handle: async ({ actor, params }, reply) => {
        reply.header('Cache-Control', 'no-store');
        return accessRequests.collectKeys(actor, params.id);
      },
    }),
    route({
      method: 'GET',
      path: '/applications',
      summary: 'List applications (admins: all; developers: their own)',
      tags: ['applications'],
      response: listSchema('applications', ApplicationSchema),
      handle: async ({ actor }) => ({ applications: await applications.list(actor) }),
    }),
    route({
      method: 'GET',
      path: '/applications/{id}',
      summary:
        'One application with its subscriptions and masked keys (created, last used, rotation due)',
      tags: ['applications'],
      params: IdParams,
      response: ApplicationSchema,
      errors: [404],
      handle: ({ actor, params }) => applications.get(actor, params.id),
    }),
  ];
}
