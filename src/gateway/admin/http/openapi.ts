// The admin API's OpenAPI 3.1 document, merged from the path objects each route module contributes.
import { ADMIN_API_BASE } from './module.js';

export type OpenApiPaths = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

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
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const;

/** A JSON response of `schema`, plus the problems every authenticated route may answer. */
export function operation(spec: {
  readonly summary: string;
  readonly tags: readonly string[];
  readonly body?: unknown;
  readonly parameters?: readonly unknown[];
  readonly response: unknown;
  readonly status?: number;
  readonly errors?: readonly number[];
  readonly contentType?: string;
}): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [String(spec.status ?? 200)]: {
      description: 'success',
      content: { [spec.contentType ?? 'application/json']: { schema: spec.response } },
    },
  };
  for (const status of [401, ...(spec.errors ?? [])])
    responses[String(status)] = { $ref: `#/components/responses/Problem${status}` };
  return {
    summary: spec.summary,
    tags: spec.tags,
    ...(spec.parameters ? { parameters: spec.parameters } : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: spec.body } } } }
      : {}),
    responses,
  };
}

export function pathParameter(name: string): Record<string, unknown> {
  return { name, in: 'path', required: true, schema: { type: 'string' } };
}

export function queryParameter(
  name: string,
  schema: unknown,
  description?: string,
): Record<string, unknown> {
  return { name, in: 'query', required: false, schema, ...(description ? { description } : {}) };
}

const PROBLEM_STATUSES = [400, 401, 403, 404, 409, 422] as const;

export function buildOpenApiDocument(paths: readonly OpenApiPaths[]): Record<string, unknown> {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const part of paths)
    for (const [path, operations] of Object.entries(part))
      merged[path] = { ...(merged[path] ?? {}), ...operations };
  return {
    openapi: '3.1.0',
    info: {
      title: 'toolgate admin API',
      version: '1.0.0',
      description:
        'Access requests, applications, subscriptions and keys, the key rotation policy and the audit log (and the modules plugged in beside them). Authenticate with `Authorization: Bearer <bootstrap admin token | user token>`.',
    },
    servers: [{ url: ADMIN_API_BASE }],
    security: [{ bearer: [] }],
    paths: Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b))),
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
