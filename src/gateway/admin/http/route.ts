// One route of the admin API, declared once: its method and path, the schemas of its path parameters,
// query and body, and what it answers. The same declaration registers the route — every part validated
// against its schema before the handler runs, so handlers and services get typed input — and describes it
// in /admin/api/v1/openapi.json (openapi.ts). No route validates in its own way, and no schema only
// decorates the document.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Actor } from '../actor.js';
import { AdminError, type FieldProblem } from '../errors.js';
import { checked, invalidRequest, validated } from './validate.js';

export const ADMIN_API_BASE = '/admin/api/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

/** What a handler gets: the authenticated actor and the validated parts of the request. */
export interface RouteInput<P, Q, B> {
  readonly actor: Actor;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
}

interface RouteShape {
  readonly method: HttpMethod;
  /** Relative to ADMIN_API_BASE, in OpenAPI form: `/tools/{name}`. */
  readonly path: string;
  readonly summary: string;
  readonly tags: readonly string[];
  /** Response schema of the success status. */
  readonly response: unknown;
  /** Success status; default 200. */
  readonly status?: number;
  /** Problem statuses beside 401, which every route may answer. */
  readonly errors?: readonly ProblemStatus[];
  /** Response content type; default application/json. */
  readonly contentType?: string;
  /** The body may be left out (it is then validated as `{}`). */
  readonly bodyOptional?: boolean;
}

export interface RouteSpec<
  P extends TSchema,
  Q extends TSchema,
  B extends TSchema,
> extends RouteShape {
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /**
   * What a body its schema refuses means on this route: throw an AdminError, or return the answer.
   * Default: 400 VALIDATION_FAILED naming each field.
   */
  readonly invalidBody?: (problems: readonly FieldProblem[], actor: Actor) => unknown;
  handle(
    input: RouteInput<Static<P>, Static<Q>, Static<B>>,
    reply: FastifyReply,
  ): Promise<unknown> | unknown;
}

/** A declared route, its types erased so routes of different shapes sit in one list. */
export interface AdminRoute extends RouteShape {
  readonly params?: TObject;
  readonly query?: TObject;
  readonly body?: TSchema;
  readonly invalidBody?: (problems: readonly FieldProblem[], actor: Actor) => unknown;
  handle(input: RouteInput<unknown, unknown, unknown>, reply: FastifyReply): Promise<unknown>;
}

export function route<
  P extends TObject = TObject<Record<never, TSchema>>,
  Q extends TObject = TObject<Record<never, TSchema>>,
  B extends TSchema = TObject<Record<never, TSchema>>,
>(spec: RouteSpec<P, Q, B>): AdminRoute {
  return {
    ...spec,
    handle: async (input, reply) =>
      spec.handle(input as RouteInput<Static<P>, Static<Q>, Static<B>>, reply),
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling (set by the admin API's authentication before any route runs). */
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

/** Registers the routes on `app` (a scope under ADMIN_API_BASE whose hook has authenticated the caller). */
export function registerRoutes(app: FastifyInstance, routes: readonly AdminRoute[]): void {
  for (const declared of routes)
    app.route({
      method: declared.method,
      url: declared.path.replace(/\{([^}]+)\}/g, ':$1'),
      handler: async (request, reply) => {
        const actor = actorOf(request);
        const params = declared.params ? validated(declared.params, request.params, 'params') : {};
        const query = declared.query ? validated(declared.query, request.query ?? {}, 'query') : {};
        let body: unknown;
        if (declared.body) {
          const given = request.body ?? (declared.bodyOptional === true ? {} : undefined);
          const result = checked(declared.body, given);
          if (!result.ok) {
            if (declared.invalidBody === undefined) throw invalidRequest(result.problems);
            return reply
              .code(declared.status ?? 200)
              .send(declared.invalidBody(result.problems, actor));
          }
          body = result.value;
        }
        const answer = await declared.handle({ actor, params, query, body }, reply);
        if (answer === reply) return reply;
        return reply.code(declared.status ?? 200).send(answer);
      },
    });
}

/** The problem statuses admin routes may answer with: each is a shared response in the OpenAPI document. */
export const PROBLEM_STATUSES = [400, 401, 403, 404, 409, 412, 422, 428] as const;
export type ProblemStatus = (typeof PROBLEM_STATUSES)[number];
