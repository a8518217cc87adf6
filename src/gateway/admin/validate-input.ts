// Small helpers for the live admin modules' validation, beside admin-core's `validated`
// (http/validate.ts): a string enum with one clear error, and Ajv errors of a nested value as field
// problems under a prefix (`settings.forwardClaims.0.header`).
import { Type } from '@sinclair/typebox';
import type { ErrorObject } from 'ajv';
import type { FieldProblem } from './errors.js';

/** A string enum as one JSON Schema `enum` (one clear error, where a union of literals gives one per branch). */
export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

export function fieldProblems(errors: readonly ErrorObject[], where?: string): FieldProblem[] {
  const out = new Map<string, FieldProblem>();
  for (const error of errors) {
    if (error.schemaPath.includes('/anyOf/')) continue;
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'additionalProperties')
      path.push(String((error.params as { additionalProperty: unknown }).additionalProperty));
    if (error.keyword === 'required')
      path.push(String((error.params as { missingProperty: unknown }).missingProperty));
    const field = [where, ...path].filter((p) => p !== undefined && p !== '').join('.');
    const message =
      error.keyword === 'additionalProperties'
        ? 'is not a known field'
        : error.keyword === 'required'
          ? 'is required'
          : error.keyword === 'enum'
            ? `must be one of ${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)}`
            : (error.message ?? 'is invalid');
    if (!out.has(field)) out.set(field, { field, message });
  }
  return [...out.values()];
}
