// Request validation of the admin plane: TypeBox schemas (the same ones the OpenAPI document shows),
// compiled once with the package's Ajv (src/shared/json-schema); every problem is reported with the field it
// concerns, all at once. The API's routes (route.ts) and the portal's forms both validate here.
import type { ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { createAjv } from '../../../shared/json-schema/ajv.js';
import { fieldProblems, type FieldProblem } from '../../../shared/json-schema/field-problems.js';
import { AdminError } from '../errors.js';

/** Where a value comes from: a body's defaults are filled in; query and path strings are also coerced. */
export type RequestPart = 'body' | 'query' | 'params';

const bodies = createAjv({ useDefaults: true });
const strings = createAjv({ useDefaults: true, coerceTypes: true });
const compiled = new WeakMap<TSchema, ValidateFunction>();
const compiledStrings = new WeakMap<TSchema, ValidateFunction>();

function validatorOf(schema: TSchema, part: RequestPart): ValidateFunction {
  const cache = part === 'body' ? compiled : compiledStrings;
  const known = cache.get(schema);
  if (known !== undefined) return known;
  const check = (part === 'body' ? bodies : strings).compile(schema);
  cache.set(schema, check);
  return check;
}

/** The value (defaults filled in) when it matches the schema; else every problem, by field. */
export function checked<S extends TSchema>(
  schema: S,
  value: unknown,
  part: RequestPart = 'body',
): { ok: true; value: Static<S> } | { ok: false; problems: FieldProblem[] } {
  if (value === undefined && part === 'body')
    return {
      ok: false,
      problems: [{ field: '', pointer: '', code: 'REQUIRED', message: 'a JSON body is required' }],
    };
  const check = validatorOf(schema, part);
  if (check(value)) return { ok: true, value: value as Static<S> };
  return { ok: false, problems: fieldProblems(check.errors ?? []) };
}

/** The value if it matches the schema; otherwise a VALIDATION_FAILED error naming each bad field. */
export function validated<S extends TSchema>(
  schema: S,
  value: unknown,
  part: RequestPart = 'body',
): Static<S> {
  const result = checked(schema, value, part);
  if (result.ok) return result.value;
  throw invalidRequest(result.problems, part);
}

/** VALIDATION_FAILED for these problems, with one line naming them all. */
export function invalidRequest(
  problems: readonly FieldProblem[],
  part: RequestPart = 'body',
): AdminError {
  const where = part === 'params' ? 'path' : part;
  return new AdminError(
    'VALIDATION_FAILED',
    problems.length === 1 && problems[0]?.field === '' && problems[0].code === 'REQUIRED'
      ? (problems[0]?.message ?? 'invalid body')
      : `invalid ${where}: ${problems.map((p) => `${p.field || `(${where})`} ${p.message}`).join('; ')}`,
    problems,
  );
}
