// Request validation for the admin API: TypeBox schemas (the same ones the OpenAPI document shows),
// compiled once with Ajv; every problem is reported with the field it concerns, all at once.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TSchema } from '@sinclair/typebox';
import { AdminError, type FieldProblem } from '../errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false }));
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
      return { field: path.join('.'), message: 'does not match any allowed form' };
    default:
      return { field: path.join('.'), message: error.message ?? 'is invalid' };
  }
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
