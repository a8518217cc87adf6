// Request validation for the admin API: TypeBox schemas (the same ones the OpenAPI document shows),
// compiled once with Ajv; every problem is reported with the field it concerns, all at once.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';
import { AdminError, type FieldProblem } from '../errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(
  new Ajv({ allErrors: true, strict: false, coerceTypes: false, verbose: true }),
);
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** The value if it matches the schema; otherwise a VALIDATION_FAILED error naming each bad field. */
export function validated<S extends TSchema>(schema: S, value: unknown, where = 'body'): Static<S> {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  if (value === undefined && where === 'body')
    throw new AdminError('VALIDATION_FAILED', 'a JSON body is required', [
      { field: '', message: 'a JSON body is required' },
    ]);
  if (check(value)) return value as Static<S>;
  const fields = dedupe((check.errors ?? []).filter(relevant).map(describe));
  throw new AdminError(
    'VALIDATION_FAILED',
    `invalid ${where}: ${fields.map((f) => `${f.field || '(body)'} ${f.message}`).join('; ')}`,
    fields,
  );
}

function relevant(error: ErrorObject): boolean {
  // A union reports one error per branch; its own summary error says enough.
  return !error.schemaPath.includes('/anyOf/');
}

function describe(error: ErrorObject): FieldProblem {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        field: [...path, String(params['missingProperty'])].join('.'),
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        field: [...path, String(params['additionalProperty'])].join('.'),
        message: 'is not a known field',
      };
    case 'anyOf':
      return { field: path.join('.'), message: `must be ${alternatives(error.schema)}` };
    default:
      return { field: path.join('.'), message: error.message ?? 'is invalid' };
  }
}

/** "one of "a", "b"" for a union of constants; else the forms, e.g. "an array or "all"". */
function alternatives(branches: unknown): string {
  if (!Array.isArray(branches)) return 'one of the allowed forms';
  const forms = branches.map((b: { const?: unknown; type?: unknown }) =>
    b.const !== undefined
      ? JSON.stringify(b.const)
      : b.type === 'array'
        ? 'an array'
        : b.type === 'null'
          ? 'null'
          : typeof b.type === 'string'
            ? `a ${b.type}`
            : 'another form',
  );
  return branches.every((b: { const?: unknown }) => b.const !== undefined)
    ? `one of ${forms.join(', ')}`
    : forms.join(' or ');
}

function dedupe(fields: FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>();
  return fields.filter((f) => {
    const key = `${f.field}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
