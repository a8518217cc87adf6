// "Try it" arguments forms, generated from a tool's input schema: strings, numbers, integers, booleans
// and enums become controls; an object with a few simple properties becomes a fieldset; anything else
// (arrays, alternatives, large or deep objects) a JSON textarea. Reading the submitted form walks the same
// field list built again from the schema, so only the schema's own properties can be sent, each parsed
// to its type with a problem named by its field. Pure.
import type { JsonObject } from '../../catalogue/types.js';
import { html, type Html } from '../html.js';
import { one, type FormBody } from '../http-security.js';
import { asStrings, exampleValue, flatten, typeOf } from './example-call.js';

/** A fieldset holds at most this many controls, at most this deep; larger objects are JSON text. */
const MAX_FIELDSET_CONTROLS = 24;
const MAX_FIELDSET_DEPTH = 2;
const MAX_HINT_CHARS = 400;

interface FieldBase {
  /** The form control's name: `arg` and the JSON pointer of the argument (`arg/body/iban`). */
  readonly name: string;
  /** The property's name in its object. */
  readonly property: string;
  readonly required: boolean;
  readonly hint: string;
}

export type ArgumentField =
  | (FieldBase & {
      readonly kind: 'string' | 'number' | 'integer';
      readonly value: string;
      readonly placeholder: string;
    })
  | (FieldBase & { readonly kind: 'boolean'; readonly value: string })
  | (FieldBase & {
      readonly kind: 'enum';
      readonly options: readonly unknown[];
      readonly value: string;
    })
  | (FieldBase & { readonly kind: 'object'; readonly children: readonly ArgumentField[] })
  | (FieldBase & { readonly kind: 'json'; readonly value: string });

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointerSegment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function hintOf(schema: JsonObject, type: string | undefined): string {
  const parts: string[] = [];
  const format = typeof schema.format === 'string' ? `, ${schema.format}` : '';
  if (type !== undefined) parts.push(`${type}${format}.`);
  if (typeof schema.description === 'string') {
    const text = schema.description.replace(/\s+/g, ' ').trim();
    parts.push(text.length > MAX_HINT_CHARS ? `${text.slice(0, MAX_HINT_CHARS)}…` : text);
  }
  return parts.join(' ');
}

/** A given example or default of a scalar, as form text ('' when the schema names none). */
function givenValue(schema: JsonObject): string {
  const given = Array.isArray(schema.examples)
    ? schema.examples[0]
    : (schema.example ?? schema.default);
  return typeof given === 'string' || typeof given === 'number' || typeof given === 'boolean'
    ? String(given)
    : '';
}

function countControls(fields: readonly ArgumentField[]): number {
  return fields.reduce((n, f) => n + (f.kind === 'object' ? countControls(f.children) : 1), 0);
}

function fieldsOf(
  root: JsonObject,
  input: JsonObject,
  prefix: string,
  depth: number,
): ArgumentField[] {
  const schema = flatten(root, input);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(asStrings(schema.required));
  return Object.entries(properties)
    .filter((entry): entry is [string, JsonObject] => isObject(entry[1]))
    .map(([property, raw]) =>
      fieldOf(
        root,
        raw,
        property,
        `${prefix}/${pointerSegment(property)}`,
        required.has(property),
        depth,
      ),
    );
}

function fieldOf(
  root: JsonObject,
  raw: JsonObject,
  property: string,
  name: string,
  required: boolean,
  depth: number,
): ArgumentField {
  const schema = flatten(root, raw);
  const type = typeOf(schema);
  const base = { name, property, required, hint: hintOf(schema, type) };
  // Only required fields start with a value (the schema's example or default, an enum's default or first
  // value): an optional field left as it is sends nothing, and the gateway applies the backend's defaults.
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const chosen = required ? (schema.default ?? schema.enum[0]) : undefined;
    const index = chosen === undefined ? -1 : schema.enum.findIndex((v) => v === chosen);
    return { ...base, kind: 'enum', options: schema.enum, value: index < 0 ? '' : String(index) };
  }
  const simple = schema.oneOf === undefined && schema.anyOf === undefined;
  if (simple && (type === 'string' || type === 'number' || type === 'integer')) {
    const given = givenValue(schema);
    return {
      ...base,
      kind: type,
      value: required ? given : '',
      placeholder:
        given !== ''
          ? given
          : type === 'string'
            ? String(exampleValue(root, schema, property))
            : '',
    };
  }
  if (simple && type === 'boolean')
    return { ...base, kind: 'boolean', value: required ? givenValue(schema) : '' };
  if (simple && type === 'object' && isObject(schema.properties) && depth < MAX_FIELDSET_DEPTH) {
    const children = fieldsOf(root, schema, name, depth + 1);
    if (children.length > 0 && countControls(children) <= MAX_FIELDSET_CONTROLS)
      return { ...base, kind: 'object', children };
  }
  const example = required ? exampleValue(root, schema, property) : undefined;
  return {
    ...base,
    hint: `${base.hint} JSON.`.trim(),
    kind: 'json',
    value: example === undefined ? '' : JSON.stringify(example, null, 2),
  };
}

/** The controls of a tool's arguments form (the top-level properties of its input schema). */
export function argumentFields(inputSchema: JsonObject): ArgumentField[] {
  return fieldsOf(inputSchema, inputSchema, 'arg', 0);
}

/** The fields with the values of a submitted form (to show the form again as it was sent). */
export function withValues(fields: readonly ArgumentField[], form: FormBody): ArgumentField[] {
  return fields.map((f) =>
    f.kind === 'object'
      ? { ...f, children: withValues(f.children, form) }
      : { ...f, value: one(form, f.name) },
  );
}

/** The arguments a submitted form holds, and the problems (form name → message) of fields it cannot read. */
export function argumentsFromForm(
  fields: readonly ArgumentField[],
  form: FormBody,
): { arguments: JsonObject; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const read = (list: readonly ArgumentField[]): JsonObject => {
    const out: JsonObject = {};
    for (const f of list) {
      if (f.kind === 'object') {
        const inner = read(f.children);
        if (Object.keys(inner).length > 0 || f.required) out[f.property] = inner;
        continue;
      }
      const text = one(form, f.name);
      if (text.trim() === '') continue;
      switch (f.kind) {
        case 'string':
          out[f.property] = text;
          break;
        case 'number':
        case 'integer': {
          const n = Number(text.trim());
          if (!Number.isFinite(n)) problems[f.name] = `${f.property} must be a number.`;
          else if (f.kind === 'integer' && !Number.isInteger(n))
            problems[f.name] = `${f.property} must be a whole number.`;
          else out[f.property] = n;
          break;
        }
        case 'boolean':
          if (text === 'true' || text === 'false') out[f.property] = text === 'true';
          else problems[f.name] = `${f.property} must be true or false.`;
          break;
        case 'enum': {
          const index = Number(text);
          if (!Number.isInteger(index) || index < 0 || index >= f.options.length)
            problems[f.name] = `${f.property}: choose one of the listed values.`;
          else out[f.property] = f.options[index];
          break;
        }
        case 'json':
          try {
            out[f.property] = JSON.parse(text) as unknown;
          } catch (error) {
            problems[f.name] = `${f.property} is not valid JSON: ${(error as Error).message}`;
          }
          break;
      }
    }
    return out;
  };
  return { arguments: read(fields), problems };
}

/** The controls' id: unique on the page, derived from the form name. */
function idOf(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The arguments form's controls, each labelled, with its hint and error tied to it. */
export function argumentControls(
  fields: readonly ArgumentField[],
  errors: Readonly<Record<string, string>>,
): Html {
  return html`${fields.map((f) => control(f, errors))}`;
}

function control(f: ArgumentField, errors: Readonly<Record<string, string>>): Html {
  const label = `${f.property}${f.required ? ' (required)' : ''}`;
  if (f.kind === 'object')
    return html`<fieldset class="arguments">
      <legend>${label}</legend>
      ${f.hint ? html`<div class="muted">${f.hint}</div>` : null}
      ${argumentControls(f.children, errors)}
    </fieldset>`;
  const id = idOf(f.name);
  const error = errors[f.name];
  const described = [f.hint ? `${id}-hint` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const common = html`id="${id}"
  name="${f.name}"${described ? html` aria-describedby="${described}"` : null}${error ? html` aria-invalid="true"` : null}`;
  let input: Html;
  switch (f.kind) {
    case 'enum':
      input = html`<select ${common}>
        <option value="">(not set)</option>
        ${f.options.map(
          (option, i) =>
            html`<option value="${i}" ${f.value === String(i) ? html` selected` : null}>
              ${typeof option === 'string' ? option : JSON.stringify(option)}
            </option>`,
        )}
      </select>`;
      break;
    case 'boolean':
      input = html`<select ${common}>
        <option value="">(not set)</option>
        <option value="true" ${f.value === 'true' ? html` selected` : null}>true</option>
        <option value="false" ${f.value === 'false' ? html` selected` : null}>false</option>
      </select>`;
      break;
    case 'json':
      input = html`<textarea ${common} rows="8" spellcheck="false">${f.value}</textarea>`;
      break;
    default:
      input = html`<input
        type="text"
        ${common}${f.kind === 'string' ? null : html` inputmode="decimal"`}
        value="${f.value}"
        ${f.placeholder ? html` placeholder="${f.placeholder}"` : null}
      />`;
  }
  return html`<label for="${id}">${label}</label>
    ${f.hint ? html`<div id="${id}-hint" class="muted">${f.hint}</div>` : null} ${input}
    ${error ? html`<div id="${id}-error" class="field-error">${error}</div>` : null}`;
}
