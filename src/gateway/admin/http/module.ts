// The seam route modules plug into: each module is a fastify plugin registered under the admin API's
// base path (after authentication, so `request.actor` is set) plus the OpenAPI paths it serves, merged
// into /admin/api/v1/openapi.json. admin-core's modules, the tool catalogue, identity-provider and usage
// modules and any later one all plug in the same way (see app.ts and extensions.ts).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../actor.js';
import { AdminError } from '../errors.js';
import type { OpenApiPaths } from './openapi.js';

export const ADMIN_API_BASE = '/admin/api/v1';

export interface AdminRouteModule {
  readonly name: string;
  /** Registered with prefix ADMIN_API_BASE; routes are written relative to it (`/tools`). */
  readonly plugin: FastifyPluginAsync;
  /** Paths relative to ADMIN_API_BASE (`/tools/{name}`), as in the document's `paths`. */
  readonly openApiPaths: OpenApiPaths;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling (set by the admin API's authentication before any route module runs). */
    actor: Actor;
  }
}

/** The authenticated actor of a request (throws if a route was reached without authentication). */
export function actorOf(request: FastifyRequest): Actor {
  const actor = (request as { actor?: Actor | null }).actor;
  if (actor === undefined || actor === null)
    throw new AdminError('UNAUTHENTICATED', 'authentication required');
  return actor;
}

/** Sends a JSON value with a status (201 for creations). */
export function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(value);
}
