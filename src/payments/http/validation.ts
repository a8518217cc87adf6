// Request validation driven by an OpenAPI 3.1 document (the single source of truth).
//
// API (compile once at startup, call per request):
//
//   const validator = createOperationValidator(document);          // parsed OpenAPI object
//   const errors = validator.validate('createPayment', {
//     body, headers, query, params,                                 // as fastify gives them
//   });                                                             // → ProblemFieldError[] ([] = valid)
//   if (errors.length > 0) return sendValidationProblem(reply, errors);
//
// Every operation's parameters (path, query, header) and its application/json request body schema are
// compiled with Ajv (JSON Schema 2020-12, ajv-formats, allErrors) when the validator is created. All
// problems are reported at once. Pointers: JSON pointer into the body ("/paymentInstruction/amount"),
// "" for the whole body, "/header/Timestamp", "/query/limit", "/path/externalReferenceNo".
// Query and path values are coerced to the declared types (a query `limit=5` becomes 5 in `query`).
// `validator.has(operationId)` tells whether the document declares the operation.
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FastifyReply } from 'fastify';
import { createAjv, type AjvCore } from '../../shared/json-schema/ajv.js';
import { problemType, sendProblem, type ProblemFieldError } from '../../shared/http/problem.js';

export interface RequestParts {
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly query?: unknown;
  readonly params?: unknown;
}

export interface OperationValidator {
  has(operationId: string): boolean;
  validate(operationId: string, request: RequestParts): ProblemFieldError[];
}

type Json = Record<string, unknown>;
type Location = 'path' | 'query' | 'header';

interface CompiledParameters {
  readonly location: Location;
  readonly names: ReadonlyMap<string, string>; // lower-case/actual key → declared name
  readonly check: ValidateFunction;
}

interface CompiledOperation {
  readonly parameters: readonly CompiledParameters[];
  readonly body?: ValidateFunction;
  readonly bodyRequired: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
let counter = 0;

export function createOperationValidator(document: Json): OperationValidator {
  const base = `urn:toolgate:openapi:${++counter}`;
  const rewritten = rewriteRefs(document, base) as Json;
  const bodyAjv = newAjv(false);
  const paramAjv = newAjv(true);
  const schemas = asRecord(asRecord(rewritten['components'])?.['schemas']) ?? {};
  for (const ajv of [bodyAjv, paramAjv]) ajv.addSchema({ $id: base, $defs: schemas });

  const operations = new Map<string, CompiledOperation>();
  const paths = asRecord(rewritten['paths']) ?? {};
  for (const pathItemValue of Object.values(paths)) {
    const pathItem = asRecord(pathItemValue) ?? {};
    const shared = asArray(pathItem['parameters']);
    for (const method of METHODS) {
      const op = asRecord(pathItem[method]);
      const id = op?.['operationId'];
      if (!op || typeof id !== 'string') continue;
      const params = [...shared, ...asArray(op['parameters'])].map((p) => resolve(rewritten, p));
      operations.set(id, compileOperation(rewritten, bodyAjv, paramAjv, params, op));
    }
  }

  return {
    has: (operationId) => operations.has(operationId),
    validate(operationId, request) {
      const op = operations.get(operationId);
      if (!op) throw new Error(`unknown operation ${operationId}`);
      const errors: ProblemFieldError[] = [];
      for (const group of op.parameters) {
        const source = sourceFor(group.location, request);
        const subject: Json = {};
        for (const [key, name] of group.names) {
          const value = source[key];
          if (value !== undefined) subject[name] = Array.isArray(value) ? value[0] : value;
        }
        if (!group.check(subject)) {
          errors.push(...toFieldErrors(group.check.errors ?? [], `/${group.location}`));
        }
        if (group.location !== 'header' && source !== subject) {
          for (const [key, name] of group.names) {
            if (subject[name] !== undefined && key === name) source[key] = subject[name];
          }
        }
      }
      if (op.body) {
        if (request.body === undefined || request.body === null) {
          if (op.bodyRequired) {
            errors.push({
              pointer: '',
              code: 'REQUIRED',
              message: 'a JSON request body is required',
            });
          }
        } else if (!op.body(request.body)) {
          errors.push(...toFieldErrors(op.body.errors ?? [], ''));
        }
      }
      return dedupe(errors);
    },
  };
}

/** Sends the 400 problem for validation errors. */
export function sendValidationProblem(
  reply: FastifyReply,
  errors: readonly ProblemFieldError[],
): FastifyReply {
  return sendProblem(reply, {
    type: problemType('VALIDATION_FAILED'),
    title: 'Bad Request',
    status: 400,
    code: 'VALIDATION_FAILED',
    detail: `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`,
    errors,
  });
}

function newAjv(coerce: boolean): AjvCore {
  return createAjv({ dialect: '2020-12', coerceTypes: coerce });
}

function compileOperation(
  doc: Json,
  bodyAjv: AjvCore,
  paramAjv: AjvCore,
  params: readonly Json[],
  op: Json,
): CompiledOperation {
  const parameters: CompiledParameters[] = [];
  for (const location of ['path', 'query', 'header'] as const) {
    const declared = params.filter((p) => p['in'] === location && typeof p['name'] === 'string');
    if (declared.length === 0) continue;
    const properties: Json = {};
    const required: string[] = [];
    const names = new Map<string, string>();
    for (const p of declared) {
      const name = p['name'] as string;
      properties[name] = p['schema'] ?? {};
      if (p['required'] === true) required.push(name);
      names.set(location === 'header' ? name.toLowerCase() : name, name);
    }
    const schema = { type: 'object', properties, required };
    parameters.push({ location, names, check: paramAjv.compile(schema) });
  }
  const requestBody = resolve(doc, op['requestBody']);
  const content = asRecord(asRecord(requestBody['content'])?.['application/json']);
  const bodySchema = asRecord(content?.['schema']);
  return {
    parameters,
    bodyRequired: requestBody['required'] === true,
    ...(bodySchema ? { body: bodyAjv.compile(bodySchema) } : {}),
  };
}

function sourceFor(location: Location, request: RequestParts): Record<string, unknown> {
  const raw =
    location === 'header' ? request.headers : location === 'query' ? request.query : request.params;
  return (asRecord(raw) ?? {}) as Record<string, unknown>;
}

const CODES: Record<string, string> = {
  required: 'REQUIRED',
  additionalProperties: 'UNKNOWN_FIELD',
  type: 'INVALID_TYPE',
  enum: 'INVALID_ENUM',
  const: 'INVALID_ENUM',
  format: 'INVALID_FORMAT',
  pattern: 'INVALID_FORMAT',
  minLength: 'TOO_SHORT',
  maxLength: 'TOO_LONG',
  minimum: 'OUT_OF_RANGE',
  maximum: 'OUT_OF_RANGE',
  exclusiveMinimum: 'OUT_OF_RANGE',
  exclusiveMaximum: 'OUT_OF_RANGE',
  multipleOf: 'OUT_OF_RANGE',
  minItems: 'TOO_FEW_ITEMS',
  maxItems: 'TOO_MANY_ITEMS',
  uniqueItems: 'DUPLICATE_ITEMS',
  minProperties: 'TOO_FEW_ITEMS',
  maxProperties: 'TOO_MANY_ITEMS',
  propertyNames: 'INVALID_FIELD_NAME',
  not: 'CONFLICTING_FIELDS',
};
const SILENT = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', '$ref']);

function toFieldErrors(errors: readonly ErrorObject[], prefix: string): ProblemFieldError[] {
  const out: ProblemFieldError[] = [];
  for (const e of errors) {
    if (SILENT.has(e.keyword)) continue;
    let pointer = prefix + e.instancePath;
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'required' && typeof params['missingProperty'] === 'string') {
      pointer += `/${escapePointer(params['missingProperty'])}`;
    } else if (
      e.keyword === 'additionalProperties' &&
      typeof params['additionalProperty'] === 'string'
    ) {
      pointer += `/${escapePointer(params['additionalProperty'])}`;
    } else if (e.keyword === 'propertyNames' && typeof params['propertyName'] === 'string') {
      pointer += `/${escapePointer(params['propertyName'])}`;
    }
    out.push({ pointer, code: CODES[e.keyword] ?? 'INVALID', message: messageFor(e) });
  }
  return out;
}

function messageFor(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `is required`;
    case 'additionalProperties':
      return `is not a known field`;
    case 'enum': {
      const allowed = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
      const list =
        allowed.length > 12 ? `${allowed.slice(0, 12).join(', ')}, …` : allowed.join(', ');
      return `must be one of: ${list}`;
    }
    case 'not':
      return 'contains fields that must not be given together';
    default:
      return e.message ?? 'is invalid';
  }
}

function dedupe(errors: readonly ProblemFieldError[]): ProblemFieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.pointer}\u0000${e.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Rewrites `#/components/schemas/X` to absolute `${base}#/$defs/X` everywhere. */
function rewriteRefs(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, base));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
      out[key] = `${base}#/$defs/${v.slice('#/components/schemas/'.length)}`;
    } else {
      out[key] = rewriteRefs(v, base);
    }
  }
  return out;
}

/** Follows a local `$ref` (parameters, requestBodies) inside the document. */
function resolve(doc: Json, value: unknown, depth = 0): Json {
  const record = asRecord(value) ?? {};
  const ref = record['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 10) return record;
  let target: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    target = asRecord(target)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return resolve(doc, target, depth + 1);
}

function asRecord(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
