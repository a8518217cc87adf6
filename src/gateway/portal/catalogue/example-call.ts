// Example calls for the developer catalogue: a `tools/call` JSON-RPC request whose arguments are built
// from the tool's input schema — the required properties only, each with the schema's own example, else
// its default, const or first enum value, else a value of its type (a placeholder naming the property for
// strings without one). Pure; local `$ref`s (`#/$defs/…`, `#/definitions/…`) are followed, cycles cut.
import type { JsonObject } from '../../catalogue/types.js';

const MAX_DEPTH = 8;

/** Typical values of common string formats (what a reader recognises, valid for the format). */
const FORMAT_EXAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2026-01-15T09:30:00Z',
  date: '2026-01-15',
  time: '09:30:00Z',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '3f2b8c1e-9a4d-4c7e-8b1f-2d6e5a7c9b01',
  ipv4: '192.0.2.1',
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema a local `$ref` points at, or undefined when it points elsewhere or nowhere. */
export function resolveRef(root: JsonObject, schema: JsonObject): JsonObject | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return isObject(node) ? node : undefined;
}

/** `$ref` followed and `allOf` merged into one schema (properties and required joined). */
export function flatten(root: JsonObject, schema: JsonObject, depth = 0): JsonObject {
  if (depth > MAX_DEPTH) return {};
  const target = schema.$ref === undefined ? schema : resolveRef(root, schema);
  if (target === undefined) return {};
  if (target !== schema) return flatten(root, { ...target, ...without(schema, '$ref') }, depth + 1);
  if (!Array.isArray(schema.allOf)) return schema;
  let merged: JsonObject = without(schema, 'allOf');
  for (const part of schema.allOf) {
    if (!isObject(part)) continue;
    const flat = flatten(root, part, depth + 1);
    merged = {
      ...flat,
      ...merged,
      properties: { ...asObject(flat.properties), ...asObject(merged.properties) },
      required: [...new Set([...asStrings(flat.required), ...asStrings(merged.required)])],
    };
  }
  return merged;
}

function without(schema: JsonObject, key: string): JsonObject {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The schema's type, the first non-null one of a list; inferred from `properties` or `enum` when absent. */
export function typeOf(schema: JsonObject): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type))
    return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  if (isObject(schema.properties)) return 'object';
  if (Array.isArray(schema.enum) && typeof schema.enum[0] === 'string') return 'string';
  return undefined;
}

/** An example value for `schema` (named `name` in its parent, for placeholders). */
export function exampleValue(
  root: JsonObject,
  input: JsonObject,
  name = 'value',
  depth = 0,
): unknown {
  if (depth > MAX_DEPTH) return null;
  const schema = flatten(root, input);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) {
    const first = alternatives.find((a) => isObject(a) && a.type !== 'null');
    if (isObject(first)) return exampleValue(root, first, name, depth + 1);
  }
  switch (typeOf(schema)) {
    case 'object':
      return exampleObject(root, schema, depth + 1);
    case 'array': {
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (minItems === 0 || !isObject(schema.items)) return [];
      return [exampleValue(root, schema.items, name, depth + 1)];
    }
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1.5;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string': {
      const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
      return format ?? `<${name}>`;
    }
    default:
      return null;
  }
}

/** An object with its required properties, each with an example value. */
export function exampleObject(root: JsonObject, input: JsonObject, depth = 0): JsonObject {
  const schema = flatten(root, input);
  const properties = asObject(schema.properties);
  const out: JsonObject = {};
  for (const name of asStrings(schema.required)) {
    const property = properties[name];
    out[name] = isObject(property) ? exampleValue(root, property, name, depth) : null;
  }
  return out;
}

/** The example arguments of a tool: its input schema's required properties with example values. */
export function exampleArguments(inputSchema: JsonObject): JsonObject {
  return exampleObject(inputSchema, inputSchema);
}

/** The JSON-RPC `tools/call` request an agent sends for the tool, with example arguments. */
export function exampleCall(name: string, inputSchema: JsonObject): JsonObject {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: exampleArguments(inputSchema) },
  };
}
