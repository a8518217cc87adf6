// Access requests and applications: request → approve | reject → collect keys once.
import type { FastifyPluginAsync } from 'fastify';
import type { AdminServices } from '../services.js';
import { actorOf, sendJson, type AdminRouteModule } from '../http/module.js';
import { operation, pathParameter, queryParameter } from '../http/openapi.js';
import { validated } from '../http/validate.js';
import { validationError } from '../errors.js';
import type { AccessRequestStatus } from '../access-requests.js';
import {
  AccessRequestBody,
  AccessRequestSchema,
  ApplicationSchema,
  ApprovalBody,
  RejectionBody,
} from './schemas.js';

const STATUSES: readonly AccessRequestStatus[] = ['pending', 'approved', 'rejected'];
const TAGS = ['access requests'];

interface IdParams {
  id: string;
}

export function accessRequestRoutes(services: AdminServices): AdminRouteModule {
  const { accessRequests, applications } = services;
  const plugin: FastifyPluginAsync = async (app) => {
    app.post('/access-requests', async (request, reply) =>
      sendJson(
        reply,
        201,
        await accessRequests.create(actorOf(request), validated(AccessRequestBody, request.body)),
      ),
    );
    app.get<{ Querystring: { status?: string } }>('/access-requests', async (request) => {
      const status = request.query.status;
      if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
        throw validationError('status', `must be one of ${STATUSES.join(', ')}`);
      return {
        accessRequests: await accessRequests.list(
          actorOf(request),
          status as AccessRequestStatus | undefined,
        ),
      };
    });
    app.get<{ Params: IdParams }>('/access-requests/:id', async (request) =>
      accessRequests.get(actorOf(request), request.params.id),
    );
    app.post<{ Params: IdParams }>('/access-requests/:id/approve', async (request) =>
      accessRequests.approve(
        actorOf(request),
        request.params.id,
        validated(ApprovalBody, request.body ?? {}),
      ),
    );
    app.post<{ Params: IdParams }>('/access-requests/:id/reject', async (request) =>
      accessRequests.reject(
        actorOf(request),
        request.params.id,
        validated(RejectionBody, request.body).reason,
      ),
    );
    app.post<{ Params: IdParams }>('/access-requests/:id/keys', async (request, reply) =>
      reply
        .header('Cache-Control', 'no-store')
        .send(await accessRequests.collectKeys(actorOf(request), request.params.id)),
    );
    app.get('/applications', async (request) => ({
      applications: await applications.list(actorOf(request)),
    }));
    app.get<{ Params: IdParams }>('/applications/:id', async (request) =>
      applications.get(actorOf(request), request.params.id),
    );
  };
  const id = [pathParameter('id')];
  return {
    name: 'access-requests',
    plugin,
    openApiPaths: {
      '/access-requests': {
        post: operation({
          summary: 'Request access for an application (tools, environments, justification)',
          tags: TAGS,
          body: AccessRequestBody,
          response: AccessRequestSchema,
          status: 201,
          errors: [400, 409],
        }),
        get: operation({
          summary: 'List access requests (admins: all; developers: their own)',
          tags: TAGS,
          parameters: [queryParameter('status', { enum: STATUSES })],
          response: {
            type: 'object',
            properties: { accessRequests: { type: 'array', items: AccessRequestSchema } },
          },
          errors: [400],
        }),
      },
      '/access-requests/{id}': {
        get: operation({
          summary: 'One access request',
          tags: TAGS,
          parameters: id,
          response: AccessRequestSchema,
          errors: [404],
        }),
      },
      '/access-requests/{id}/approve': {
        post: operation({
          summary:
            'Approve (admin): provisions one subscription per requested environment, keys not yet minted',
          tags: TAGS,
          parameters: id,
          body: ApprovalBody,
          response: AccessRequestSchema,
          errors: [400, 403, 404, 409],
        }),
      },
      '/access-requests/{id}/reject': {
        post: operation({
          summary: 'Reject with a reason (admin)',
          tags: TAGS,
          parameters: id,
          body: RejectionBody,
          response: AccessRequestSchema,
          errors: [400, 403, 404, 409],
        }),
      },
      '/access-requests/{id}/keys': {
        post: operation({
          summary:
            'Collect the keys of an approved request: minted now, shown this once (requester only)',
          tags: TAGS,
          parameters: id,
          response: {
            type: 'object',
            properties: {
              subscriptions: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    environment: { type: 'string' },
                    subscriptionId: { type: 'string' },
                    primaryKey: { type: 'string' },
                    secondaryKey: { type: 'string' },
                    mcpServers: { type: 'object' },
                  },
                },
              },
            },
          },
          errors: [403, 404, 409],
        }),
      },
      '/applications': {
        get: operation({
          summary: 'List applications (admins: all; developers: their own)',
          tags: ['applications'],
          response: {
            type: 'object',
            properties: { applications: { type: 'array', items: ApplicationSchema } },
          },
        }),
      },
      '/applications/{id}': {
        get: operation({
          summary:
            'One application with its subscriptions and masked keys (created, last used, rotation due)',
          tags: ['applications'],
          parameters: id,
          response: ApplicationSchema,
          errors: [404],
        }),
      },
    },
  };
}
