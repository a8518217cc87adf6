// One OpenAPI operation → one tool definition (pure). Arguments: path, query and declared header
// parameters by name, plus the JSON body as `body`. Credentials never become arguments.
import { annotationsFor } from './annotations.js';
import { toJsonSchema } from './json-schema.js';
import type {
  BodyBinding,
  HttpMethod,
  JsonObject,
  ParameterBinding,
  SecurityClass,
  Tool,
} from './types.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

export const METHODS: readonly HttpMethod[] = [
  'GET',
  'PUT',
  'POST',
  'DELETE',
  'PATCH',
  'HEAD',
  'OPTIONS',
];

/**
 * Identity-bearing header names (lower case): the headers identity forwarding sets (forwarding/identity.ts)
 * and the caller's credentials. A client must never be able to set one on an upstream request, so no
 * tool argument becomes one.
 */
export const RESERVED_UPSTREAM_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'ocp-apim-subscription-key',
  'x-user-id',
  'x-toolgate-application',
  'x-toolgate-gateway-key',
  'x-toolgate-identity',
];

/** True for headers that are identity-bearing: reserved names and any X-User-* header. */
export function isIdentityHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    RESERVED_UPSTREAM_HEADERS.includes(lower) ||
    lower.startsWith('x-user-') ||
    lower.startsWith('x-toolgate-')
  );
}

/** Header parameters that are never taken from the caller (credentials, transport, identity). */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'accept',
  'host',
  'connection',
  'transfer-encoding',
  'traceparent',
  'tracestate',
  'x-request-id',
]);

export function isReservedHeader(name: string, injected: ReadonlySet<string>): boolean {
  const lower = name.toLowerCase();
  return (
    RESERVED_HEADERS.has(lower) ||
    injected.has(lower) ||
    isIdentityHeader(lower) ||
    lower.startsWith('mcp-')
  );
}

export interface OperationInput {
  readonly backend: string;
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly pathItem: JsonObject;
  readonly operation: JsonObject;
  readonly securityClass: SecurityClass;
  /** Lower-case header names the gateway injects or that carry credentials. */
  readonly hiddenHeaders: ReadonlySet<string>;
}

export type OperationResult = { tool: Tool } | { skipped: string };

export function mapOperation(input: OperationInput): OperationResult {
  const { operation } = input;
  const properties: Record<string, JsonObject> = {};
  const required: string[] = [];
  const parameters: ParameterBinding[] = [];

  for (const param of mergedParameters(input.pathItem, operation)) {
    const where = param.in;
    if (where !== 'path' && where !== 'query' && where !== 'header') continue; // cookies: never
    const name = String(param.name);
    if (where === 'header' && isReservedHeader(name, input.hiddenHeaders)) continue;
    const argument = name in properties ? `${where}_${name}` : name;
    const schema = toJsonSchema(parameterSchema(param), 'input');
    if (typeof param.description === 'string' && schema.description === undefined)
      schema.description = param.description;
    properties[argument] = schema;
    const isRequired = where === 'path' || param.required === true;
    if (isRequired) required.push(argument);
    parameters.push({
      argument,
      name,
      in: where,
      required: isRequired,
      explode: param.explode !== false,
    });
  }

  let body: BodyBinding | undefined;
  const requestBody = isPlainObject(operation.requestBody) ? operation.requestBody : undefined;
  if (requestBody) {
    const media = jsonMedia(requestBody.content);
    const bodyRequired = requestBody.required === true;
    if (!media) {
      if (bodyRequired) return { skipped: 'request body has no JSON media type' };
    } else {
      const argument = 'body' in properties ? 'requestBody' : 'body';
      const schema = toJsonSchema(media.schema, 'input');
      if (typeof requestBody.description === 'string' && schema.description === undefined)
        schema.description = requestBody.description;
      properties[argument] = schema;
      if (bodyRequired) required.push(argument);
      body = { argument, required: bodyRequired, contentType: media.type };
    }
  }

  const inputSchema: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;

  const summary = typeof operation.summary === 'string' ? operation.summary.trim() : undefined;
  const description =
    typeof operation.description === 'string' ? operation.description.trim() : undefined;
  const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
  return {
    tool: {
      name: input.name,
      title: summary || undefined,
      description: description || summary || undefined,
      inputSchema,
      outputSchema: outputSchemaOf(operation.responses),
      annotations: annotationsFor(
        input.method,
        operationId,
        input.path,
        operation['x-mcp-annotations'],
      ),
      securityClass: input.securityClass,
      backend: input.backend,
      operationId,
      operation: {
        method: input.method,
        pathTemplate: input.path,
        parameters,
        body,
        jsonResponse: declaresJsonSuccess(operation.responses),
      },
    },
  };
}

/** Path-level parameters, overridden by operation-level ones with the same name and location. */
function mergedParameters(pathItem: JsonObject, operation: JsonObject): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      if (isPlainObject(p) && typeof p.name === 'string')
        merged.set(`${String(p.in)}:${p.name}`, p);
    }
  }
  return [...merged.values()];
}

function parameterSchema(param: JsonObject): unknown {
  if (isPlainObject(param.schema)) return param.schema;
  const media = jsonMedia(param.content);
  return media?.schema ?? { type: 'string' };
}

function jsonMedia(content: unknown): { type: string; schema: unknown } | undefined {
  if (!isPlainObject(content)) return undefined;
  const types = Object.keys(content);
  const type =
    types.find((t) => t.split(';')[0]?.trim().toLowerCase() === 'application/json') ??
    types.find((t) => /\+json(\s*;|$)/i.test(t));
  if (type === undefined) return undefined;
  const media = content[type];
  return { type, schema: isPlainObject(media) ? (media.schema ?? {}) : {} };
}

/** Whether any 2xx response declares a JSON media type (arrays and scalars too, unlike outputSchema). */
function declaresJsonSuccess(responses: unknown): boolean {
  if (!isPlainObject(responses)) return false;
  return Object.entries(responses).some(
    ([code, response]) =>
      /^2(\d\d|XX)$/i.test(code) &&
      isPlainObject(response) &&
      jsonMedia(response.content) !== undefined,
  );
}

/** The first 2xx JSON response whose schema is an object becomes the outputSchema. */
function outputSchemaOf(responses: unknown): JsonObject | undefined {
  if (!isPlainObject(responses)) return undefined;
  const codes = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  for (const code of codes) {
    const response = responses[code];
    if (!isPlainObject(response)) continue;
    const media = jsonMedia(response.content);
    if (!media) continue;
    const schema = toJsonSchema(media.schema, 'output');
    const isObjectSchema =
      schema.type === 'object' ||
      (schema.type === undefined &&
        (isPlainObject(schema.properties) || Array.isArray(schema.allOf)));
    return isObjectSchema ? { ...schema, type: 'object' } : undefined;
  }
  return undefined;
}
