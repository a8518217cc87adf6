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
import type { ValidateFunction } from 'ajv';
import type { FastifyReply } from 'fastify';
import { createAjv, type AjvCore } from '../../shared/json-schema/ajv.js';
import { problem, sendProblem, type ProblemFieldError } from '../../shared/http/problem.js';
import { fieldProblems } from '../../shared/json-schema/field-problems.js';

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
          errors.push(...toFieldErrors(group.check.errors, `/${group.location}`));
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
          errors.push(...toFieldErrors(op.body.errors, ''));
        }
      }
      return errors;
    },
  };
}

/** Sends the 400 problem for validation errors. */
export function sendValidationProblem(
  reply: FastifyReply,
  errors: readonly ProblemFieldError[],
): FastifyReply {
  return sendProblem(
    reply,
    problem(
      400,
      'VALIDATION_FAILED',
      `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`,
      errors,
    ),
  );
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

/**
 * The shared translation of Ajv's errors (src/shared/json-schema), showing a union's branches: the
 * document's alternatives are whole shapes, and the branch errors say which field is wrong. Pointers only
 * (the payment API names fields by JSON pointer).
 */
function toFieldErrors(errors: ValidateFunction['errors'], base: string): ProblemFieldError[] {
  return fieldProblems(errors ?? [], { base, unions: 'branches' }).map(
    ({ pointer, code, message }) => ({ pointer, code, message }),
  );
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
