// The schemas a tool shows in tools/list, derived from the full ones the gateway validates with. Pure.
// A shown schema accepts everything its full schema accepts: each step either keeps the meaning exactly
// (a repeated subschema moved to `$defs`), removes annotations (descriptions) or removes length limits and
// the closing of nested objects (`additionalProperties: false` below the arguments), which only widens it. Arguments and results are still checked against the full schemas
// (mcp/arguments.ts), so what is left out of the view is still enforced.
import type { JsonObject, Tool } from './types.js';
import { isPlainObject } from '../../shared/is-plain-object.js';

/** `compact`: the lean view below; `full`: the schemas exactly as the gateway validates with them. */
export type SchemaView = 'compact' | 'full';

/**
 * The levers the compact view uses, kept by measurement (bench/catalogue, docs/decisions.md D-053 to
 * D-057): shared `$defs`, no descriptions below the argument level, no `minLength`/`maxLength`, no
 * `additionalProperties: false` below the argument level.
 */
export const COMPACT_VIEW: CompactOptions = {
  defs: true,
  nestedDescriptions: false,
  lengths: false,
  nestedClosed: false,
};

/** The compact view shows an outputSchema only when its compact form is at most this many bytes. */
export const MAX_SHOWN_OUTPUT_BYTES = 768;

export interface ShownSchemas {
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject | undefined;
}

/** The input and output schema a tool shows in the given view. */
export function shownSchemas(
  tool: Pick<Tool, 'inputSchema' | 'outputSchema' | 'schemaNames'>,
  view: SchemaView,
): ShownSchemas {
  if (view === 'full') return { inputSchema: tool.inputSchema, outputSchema: tool.outputSchema };
  const options: CompactOptions = { ...COMPACT_VIEW, names: tool.schemaNames };
  const inputSchema = compactSchema(tool.inputSchema, options);
  if (!tool.outputSchema) return { inputSchema };
  const outputSchema = compactSchema(tool.outputSchema, options);
  return Buffer.byteLength(JSON.stringify(outputSchema)) <= MAX_SHOWN_OUTPUT_BYTES
    ? { inputSchema, outputSchema }
    : { inputSchema };
}

export interface CompactOptions {
  /** Hoist subschemas that repeat inside one schema into `$defs`, referenced as `#/$defs/Name`. */
  readonly defs: boolean;
  /** Show descriptions below the argument level (the root's and each argument's own always stay). */
  readonly nestedDescriptions: boolean;
  /** Show `minLength` / `maxLength`. */
  readonly lengths: boolean;
  /**
   * Show `additionalProperties: false` below the argument level (default true). The root and each argument
   * keep theirs, so the model still sees which arguments exist; an unknown nested field is still refused
   * by the full schema, with its pointer.
   */
  readonly nestedClosed?: boolean | undefined;
  /** Names for hoisted subschemas, by the JSON text of their full form (the OpenAPI component names). */
  readonly names?: ReadonlyMap<string, string> | undefined;
  /** Smallest subschema worth hoisting, in bytes of JSON (default 64). */
  readonly minBytes?: number | undefined;
}

/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
/** Keywords whose value is one subschema (or, for `items` in older drafts, a list of them). */
const SCHEMA_ONE = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** A schema that already uses references or identifiers is shown as it is (no second `$defs`). */
const REFERENCE_KEYWORDS = new Set([
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$defs',
  'definitions',
]);

/** Where a subschema sits: enough to name it and to know whether it is an argument's own schema. */
interface Site {
  /** 0 for the root, 1 for the root's own properties (the tool's arguments), 2 and more elsewhere. */
  readonly depth: number;
  /** Name the position suggests (property name, `…Item` for array items). */
  readonly hint: string;
}

type Visit = (schema: JsonObject, site: Site) => JsonObject;

/** A copy of `schema` with `visit` applied to each direct subschema (children first is up to `visit`). */
function mapSubschemas(schema: JsonObject, site: Site, visit: Visit): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    // Only the root's `properties` are arguments; its `$defs`, `allOf` … are nested parts.
    const depth = site.depth === 0 && key !== 'properties' ? 2 : site.depth + 1;
    const child = (v: unknown, hint: string): unknown =>
      isPlainObject(v) ? visit(v, { depth, hint }) : v;
    if (SCHEMA_MAPS.has(key) && isPlainObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, child(v, k)]));
    } else if (SCHEMA_ONE.has(key)) {
      const hint = key === 'items' ? `${site.hint}Item` : `${site.hint}${capitalize(key)}`;
      out[key] = Array.isArray(value) ? value.map((v) => child(v, hint)) : child(value, hint);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v, i) => child(v, `${site.hint}${i + 1}`));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The shown form of a tool's input or output schema. */
export function compactSchema(schema: JsonObject, options: CompactOptions): JsonObject {
  const shown = prepare(schema, options, 0);
  if (!options.defs || usesReferences(schema)) return shown;
  // Names are looked up by the prepared text of a subschema, as it appears in the prepared schema.
  const names = new Map<string, string>();
  for (const [text, name] of options.names ?? [])
    names.set(JSON.stringify(prepare(JSON.parse(text) as JsonObject, options, 2)), name);
  return hoistRepeats(shown, names, options.minBytes ?? 64);
}

/**
 * Nested descriptions and lengths removed, from `depth` down. Below depth 1 the result does not depend on
 * where a subschema sits, so subschemas equal in full stay equal once prepared.
 */
function prepare(schema: JsonObject, options: CompactOptions, depth: number): JsonObject {
  const nestedClosed = options.nestedClosed ?? true;
  if (options.nestedDescriptions && options.lengths && nestedClosed) return schema;
  const visit: Visit = (s, site) => {
    const out = mapSubschemas(s, site, visit);
    if (!options.lengths) {
      delete out.minLength;
      delete out.maxLength;
    }
    if (!options.nestedDescriptions && site.depth >= 2) delete out.description;
    if (!nestedClosed && site.depth >= 2 && out.additionalProperties === false)
      delete out.additionalProperties;
    return out;
  };
  return visit(schema, { depth, hint: '' });
}

function usesReferences(schema: JsonObject): boolean {
  let found = false;
  const visit: Visit = (s, site) => {
    if (Object.keys(s).some((k) => REFERENCE_KEYWORDS.has(k))) found = true;
    return found ? s : mapSubschemas(s, site, visit);
  };
  visit(schema, { depth: 0, hint: '' });
  return found;
}

// ---- Repeated subschemas → $defs -------------------------------------------------------------------

interface Repeat {
  readonly text: string;
  count: number;
  /** Position names of the copies, for a generated name. */
  readonly hints: string[];
}

/**
 * Greedy: the repeated subschema that saves the most bytes moves to `$defs` and every copy becomes a
 * `$ref`; again until nothing repeated pays. Subschemas inside `$defs` take part, so a part shared by two
 * hoisted schemas is hoisted in turn. An argument's own schema (depth 1) stays in place, with its
 * description, so the model reads each argument where it is.
 */
function hoistRepeats(
  schema: JsonObject,
  names: ReadonlyMap<string, string>,
  minBytes: number,
): JsonObject {
  let root = schema;
  const defs: Record<string, JsonObject> = {};
  const taken = new Set<string>();
  for (;;) {
    const repeats = new Map<string, Repeat>();
    const count: Visit = (s, site) => {
      if (site.depth >= 2) {
        const text = JSON.stringify(s);
        if (text.length >= minBytes) {
          const seen = repeats.get(text);
          if (seen) {
            seen.count += 1;
            seen.hints.push(site.hint);
          } else repeats.set(text, { text, count: 1, hints: [site.hint] });
        }
      }
      return mapSubschemas(s, site, count);
    };
    count(root, { depth: 0, hint: '' });
    for (const [name, def] of Object.entries(defs))
      mapSubschemas(def, { depth: 1, hint: name }, count);

    let best: { repeat: Repeat; name: string; saving: number } | undefined;
    for (const repeat of repeats.values()) {
      if (repeat.count < 2) continue;
      const named = names.get(repeat.text) ?? names.get(JSON.stringify(expand(repeat.text, defs)));
      const name = defName(named ?? commonName(repeat.hints), taken);
      const ref = JSON.stringify({ $ref: `#/$defs/${name}` }).length;
      const saving =
        repeat.count * (repeat.text.length - ref) - repeat.text.length - name.length - 4;
      if (saving > 0 && (!best || saving > best.saving)) best = { repeat, name, saving };
    }
    if (!best) break;

    const { repeat, name } = best;
    taken.add(name);
    const replace: Visit = (s, site) =>
      site.depth >= 2 && JSON.stringify(s) === repeat.text
        ? { $ref: `#/$defs/${name}` }
        : mapSubschemas(s, site, replace);
    root = replace(root, { depth: 0, hint: '' });
    for (const [other, def] of Object.entries(defs))
      defs[other] = mapSubschemas(def, { depth: 1, hint: other }, replace);
    defs[name] = JSON.parse(repeat.text) as JsonObject;
  }
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: sortedByName(defs) };
}

/** What the copies' positions share: `payerAccountReference` and `payeeAccountReference` → `AccountReference`. */
function commonName(hints: readonly string[]): string {
  const first = hints[0] ?? '';
  let length = 0;
  while (
    length < first.length &&
    hints.every(
      (h) => h.length > length && h[h.length - 1 - length] === first[first.length - 1 - length],
    )
  )
    length += 1;
  const suffix = first.slice(first.length - length);
  const word = suffix.search(/[A-Z]/);
  if (suffix === first) return first;
  return word >= 0 ? suffix.slice(word) : first;
}

/** The subschema `text` with the `$ref`s already made put back: its original form, to look its name up. */
function expand(text: string, defs: Readonly<Record<string, JsonObject>>): JsonObject {
  const inline: Visit = (s, site) => {
    const ref = s.$ref;
    if (typeof ref === 'string' && Object.keys(s).length === 1) {
      const def = defs[ref.slice('#/$defs/'.length)];
      if (def) return inline(def, site);
    }
    return mapSubschemas(s, site, inline);
  };
  return inline(JSON.parse(text) as JsonObject, { depth: 2, hint: '' });
}

/** A JSON-pointer-safe, unused name: letters, digits and `_`, starting with a capital. */
function defName(wanted: string, taken: ReadonlySet<string>): string {
  const base = capitalize(wanted.replace(/[^A-Za-z0-9_]/g, '')) || 'Schema';
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
  return name;
}

function sortedByName(defs: Record<string, JsonObject>): Record<string, JsonObject> {
  return Object.fromEntries(Object.entries(defs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
