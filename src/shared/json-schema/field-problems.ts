// The one translation of Ajv's errors into field problems: where (an RFC 6901 pointer, and the same path
// dotted as a client spells it), a stable code and a message a person can act on. Combinators say nothing
// of their own (`if`, `allOf`, `$ref`): the errors of their parts do. A union (`anyOf`, `oneOf`) reports one
// error per branch and a summary; which of the two a caller shows is its choice (`unions`).
import type { ErrorObject } from 'ajv';

export interface FieldProblem {
  /** Dotted path of the field as the client sent it (`owner.email`, `tools.2`); "" for the whole value. */
  readonly field: string;
  /** The same place as a JSON pointer (`/owner/email`); "" for the whole value. */
  readonly pointer: string;
  /** What is wrong, by kind: REQUIRED, UNKNOWN_FIELD, INVALID_TYPE, INVALID_ENUM, … (docs/errors.md). */
  readonly code: string;
  readonly message: string;
}

const CODES: Readonly<Record<string, string>> = {
  required: 'REQUIRED',
  additionalProperties: 'UNKNOWN_FIELD',
  type: 'INVALID_TYPE',
  enum: 'INVALID_ENUM',
  const: 'INVALID_ENUM',
  anyOf: 'INVALID_VALUE',
  oneOf: 'INVALID_VALUE',
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

export interface FieldProblemOptions {
  /** The pointer of the validated value inside what the client sent (`/settings`, `/query`). */
  readonly base?: string;
  /**
   * `summary` (default): a union's own error ("must be one of …"), for small schemas whose alternatives
   * are forms of one value. `branches`: the errors inside its branches, for documents whose alternatives
   * are whole shapes (the payment order), where the summary would hide which field is wrong.
   */
  readonly unions?: 'summary' | 'branches';
}

/** Keywords whose error only says that a part failed; the part's own errors say what. */
const SILENT: ReadonlySet<string> = new Set(['if', 'then', 'else', 'allOf', '$ref']);
const UNION_SUMMARY: ReadonlySet<string> = new Set(['anyOf', 'oneOf']);
const UNION_BRANCH = /\/(anyOf|oneOf)\/\d+\//;

/** Field problems of a failed validation, one per field and kind, in Ajv's order. */
export function fieldProblems(
  errors: readonly ErrorObject[],
  options: FieldProblemOptions = {},
): FieldProblem[] {
  const base = options.base ?? '';
  const branches = options.unions === 'branches';
  const out = new Map<string, FieldProblem>();
  for (const error of errors) {
    if (SILENT.has(error.keyword)) continue;
    if (branches ? UNION_SUMMARY.has(error.keyword) : UNION_BRANCH.test(error.schemaPath)) continue;
    const segments = [...pointerSegments(base), ...pointerSegments(error.instancePath)];
    const named = namedProperty(error);
    if (named !== undefined) segments.push(named);
    const code = CODES[error.keyword] ?? 'INVALID';
    const problem: FieldProblem = {
      field: segments.join('.'),
      pointer: segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
      code,
      message: messageOf(error),
    };
    const key = `${problem.pointer}\u0000${code}`;
    if (!out.has(key)) out.set(key, problem);
  }
  return [...out.values()];
}

/** The segments of a JSON pointer, unescaped. */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The property an error is about when Ajv reports it on the parent object. */
function namedProperty(error: ErrorObject): string | undefined {
  const params = error.params as Record<string, unknown>;
  const name =
    error.keyword === 'required'
      ? params['missingProperty']
      : error.keyword === 'additionalProperties'
        ? params['additionalProperty']
        : error.keyword === 'propertyNames'
          ? params['propertyName']
          : undefined;
  return typeof name === 'string' ? name : undefined;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
      return `must be one of ${listOf(params['allowedValues'])}`;
    case 'const':
      return `must be ${JSON.stringify(params['allowedValue'])}`;
    case 'anyOf':
    case 'oneOf':
      return `must be ${alternatives(error.schema)}`;
    case 'not':
      return 'contains fields that must not be given together';
    default:
      return error.message ?? 'is invalid';
  }
}

/** `"a", "b"` (at most twelve values shown). */
function listOf(values: unknown): string {
  const all = Array.isArray(values) ? values : [];
  const shown = all.slice(0, 12).map((v) => JSON.stringify(v));
  return all.length > 12 ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** `one of "a", "b"` for a union of constants; else the forms, e.g. `an array or "all"`. */
function alternatives(branches: unknown): string {
  if (!Array.isArray(branches)) return 'one of the allowed forms';
  const typed = branches as { const?: unknown; enum?: unknown; type?: unknown }[];
  if (typed.every((b) => b.const !== undefined))
    return `one of ${listOf(typed.map((b) => b.const))}`;
  return typed
    .map((b) =>
      b.const !== undefined
        ? JSON.stringify(b.const)
        : Array.isArray(b.enum)
          ? `one of ${listOf(b.enum)}`
          : b.type === 'array'
            ? 'an array'
            : b.type === 'null'
              ? 'null'
              : b.type === 'object'
                ? 'an object'
                : typeof b.type === 'string'
                  ? `a ${b.type}`
                  : 'another form',
    )
    .join(' or ');
}
