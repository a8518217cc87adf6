// OpenAPI 3.0/3.1 schema objects → JSON Schema 2020-12 for tool input/output schemas. Pure: the input is a
// dereferenced document (cycles possible); the output is a fresh tree without cycles or OpenAPI-only keys.
import type { JsonObject } from './types.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

const OPENAPI_ONLY = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example']);
const MAX_DEPTH = 40;

export type SchemaMode = 'input' | 'output';

/** Converts one schema; `mode` drops readOnly properties from inputs and writeOnly ones from outputs. */
export function toJsonSchema(schema: unknown, mode: SchemaMode): JsonObject {
  return convert(schema, mode, new Set<object>(), 0);
}

function convert(schema: unknown, mode: SchemaMode, stack: Set<object>, depth: number): JsonObject {
  if (!isPlainObject(schema)) return {};
  // A cycle (recursive schema) or absurd depth becomes "any value": permissive rather than wrong.
  if (stack.has(schema) || depth > MAX_DEPTH) return {};
  stack.add(schema);
  try {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (OPENAPI_ONLY.has(key) || key.startsWith('x-') || key === '$schema' || key === '$id')
        continue;
      out[key] = convertKeyword(key, value, mode, stack, depth);
    }
    if ('example' in schema && !('examples' in schema)) out.examples = [schema.example];
    applyNullable(schema, out);
    applyExclusive(schema, out, 'exclusiveMinimum', 'minimum');
    applyExclusive(schema, out, 'exclusiveMaximum', 'maximum');
    dropDirectional(out, mode);
    return out;
  } finally {
    stack.delete(schema);
  }
}

function convertKeyword(
  key: string,
  value: unknown,
  mode: SchemaMode,
  stack: Set<object>,
  depth: number,
): unknown {
  const sub = (v: unknown) => convert(v, mode, stack, depth + 1);
  switch (key) {
    case 'properties':
    case 'patternProperties':
    case '$defs':
    case 'definitions':
    case 'dependentSchemas':
      return isPlainObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sub(v)]))
        : {};
    case 'items':
    case 'additionalProperties':
    case 'unevaluatedProperties':
    case 'unevaluatedItems':
    case 'propertyNames':
    case 'contains':
    case 'not':
    case 'if':
    case 'then':
    case 'else':
      return typeof value === 'boolean'
        ? value
        : Array.isArray(value)
          ? value.map(sub)
          : sub(value);
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
    case 'prefixItems':
      return Array.isArray(value) ? value.map(sub) : [];
    default:
      return structuredCloneJson(value);
  }
}

function structuredCloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredCloneJson);
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, structuredCloneJson(v)]));
  return value;
}

/** OpenAPI 3.0 `nullable: true` → `type: [T, 'null']` (and null in an enum). */
function applyNullable(source: JsonObject, out: JsonObject): void {
  if (source.nullable !== true) return;
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}

/** OpenAPI 3.0 boolean `exclusiveMinimum: true` + `minimum: n` → 2020-12 `exclusiveMinimum: n`. */
function applyExclusive(source: JsonObject, out: JsonObject, key: string, bound: string): void {
  const flag = source[key];
  if (typeof flag !== 'boolean') return;
  delete out[key];
  if (flag && typeof source[bound] === 'number') {
    out[key] = source[bound];
    delete out[bound];
  }
}

function dropDirectional(out: JsonObject, mode: SchemaMode): void {
  const props = out.properties;
  if (!isPlainObject(props)) return;
  const hidden = mode === 'input' ? 'readOnly' : 'writeOnly';
  const removed = Object.keys(props).filter(
    (k) => isPlainObject(props[k]) && props[k][hidden] === true,
  );
  if (removed.length === 0) return;
  for (const k of removed) delete props[k];
  if (Array.isArray(out.required))
    out.required = out.required.filter((r) => typeof r !== 'string' || !removed.includes(r));
}
