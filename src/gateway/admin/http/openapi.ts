// The admin API's OpenAPI 3.1 document, made from the route declarations (route.ts) — the same schemas
// that validate each request describe it here.
import type { TObject } from '@sinclair/typebox';
import { ADMIN_API_BASE, PROBLEM_STATUSES, type AdminRoute } from './route.js';

export const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'pointer', 'code', 'message'],
        properties: {
          field: { type: 'string', description: 'dotted path as sent (`owner.email`)' },
          pointer: { type: 'string', description: 'the same place as a JSON pointer' },
          code: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
  },
} as const;

/** The OpenAPI operation a route declaration describes. */
export function operationOf(route: AdminRoute): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: {
      description: 'success',
      content: { [route.contentType ?? 'application/json']: { schema: route.response } },
    },
  };
  for (const status of [401, ...(route.errors ?? [])])
    responses[String(status)] = { $ref: `#/components/responses/Problem${status}` };
  const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
  return {
    summary: route.summary,
    tags: route.tags,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.bodyOptional !== true,
            content: { 'application/json': { schema: route.body } },
          },
        }
      : {}),
    responses,
  };
}

function parametersOf(schema: TObject | undefined, where: 'path' | 'query'): unknown[] {
  if (schema === undefined) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const { description, ...rest } = property as { description?: string };
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema: rest,
      ...(description === undefined ? {} : { description }),
    };
  });
}

export function buildOpenApiDocument(routes: readonly AdminRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes)
    paths[route.path] = {
      ...(paths[route.path] ?? {}),
      [route.method.toLowerCase()]: operationOf(route),
    };
  return {
    openapi: '3.1.0',
    info: {
      title: 'toolgate admin API',
      version: '1.0.0',
      description:
        'Access requests, applications, subscriptions and keys, the key rotation policy, the audit log, the tool catalogue, the identity-provider settings and usage. Authenticate with `Authorization: Bearer <bootstrap admin token | user token>`.',
    },
    servers: [{ url: ADMIN_API_BASE }],
    security: [{ bearer: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Problem: PROBLEM_SCHEMA },
      responses: Object.fromEntries(
        PROBLEM_STATUSES.map((status) => [
          `Problem${status}`,
          {
            description: 'problem details (RFC 9457)',
            content: {
              'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
            },
          },
        ]),
      ),
    },
  };
}
