// Request validation for the admin routes: a TypeBox schema compiled once per route, and every problem
// turned into `{ field, message }` with a dotted path (`settings.forwardClaims.0.header`), so the caller
// sees each mistake by name instead of a generic 400.
import { Ajv, type ErrorObject } from 'ajv';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AdminError, type FieldProblem } from './errors.js';

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });

export type InputCheck<S extends TSchema> = (value: unknown, where?: string) => Static<S>;

/** Compiles `schema`; the returned check throws AdminError VALIDATION_FAILED naming every bad field. */
export function inputCheck<S extends TSchema>(schema: S): InputCheck<S> {
  const check = ajv.compile(schema);
  return (value, where) => {
    if (check(value)) return value as Static<S>;
    const problems = fieldProblems(check.errors ?? [], where);
    throw new AdminError(
      'VALIDATION_FAILED',
      `The request is invalid: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
      problems,
    );
  };
}

export function fieldProblems(errors: readonly ErrorObject[], where?: string): FieldProblem[] {
  const out = new Map<string, FieldProblem>();
  for (const error of errors) {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'additionalProperties')
      path.push(String((error.params as { additionalProperty: unknown }).additionalProperty));
    if (error.keyword === 'required')
      path.push(String((error.params as { missingProperty: unknown }).missingProperty));
    const field = [where, ...path].filter((p) => p !== undefined && p !== '').join('.') || '(body)';
    const message =
      error.keyword === 'additionalProperties'
        ? 'is not a known field'
        : error.keyword === 'required'
          ? 'is required'
          : error.keyword === 'enum' || error.keyword === 'const'
            ? `must be one of ${JSON.stringify(allowed(error))}`
            : (error.message ?? 'is invalid');
    if (!out.has(field)) out.set(field, { field, message });
  }
  return [...out.values()];
}

function allowed(error: ErrorObject): unknown {
  const params = error.params as { allowedValues?: unknown; allowedValue?: unknown };
  return params.allowedValues ?? params.allowedValue;
}

/** A string enum as one JSON Schema `enum` (one clear error, where a union of literals gives one per branch). */
export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}
