// Validates a configuration object against its TypeBox/JSON schema, filling defaults, and turns the first
// problems into one readable line: "gateway.port: 70000 is invalid: must be <= 65535".
import type { ErrorObject } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { createAjv } from '../shared/json-schema/ajv.js';
import { maskSecret, maskUrlPassword } from '../shared/log/mask.js';
import { ConfigError } from './errors.js';

const ajv = createAjv({ useDefaults: true });

/**
 * The one validator of configuration: the whole file at startup (load.ts) and the slices that can be
 * given on their own (`at` names where the slice sits, e.g. "gateway.rateLimit", so messages name the
 * key as the file spells it). Returns a copy with defaults filled; the input is not modified.
 */
export function validateAgainstSchema<S extends TSchema>(
  schema: S,
  value: unknown,
  at?: string,
): Static<S> {
  const copy = structuredClone(value);
  const check = ajv.compile(schema);
  if (check(copy)) return copy as Static<S>;
  const problems = (check.errors ?? [])
    .filter(relevant)
    .map((e) => describe(e, copy))
    .map((problem) => (at === undefined ? problem : `${at}.${problem}`));
  throw new ConfigError(`invalid configuration: ${unique(problems).slice(0, 5).join('; ')}`);
}

/** Union branches produce one error per branch; the enum-like summary is clearer. */
function relevant(error: ErrorObject): boolean {
  return error.keyword !== 'const' || error.schemaPath.split('/').length < 3;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function keyPath(error: ErrorObject): string {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'additionalProperties') {
    base.push(String((error.params as { additionalProperty: string }).additionalProperty));
  }
  if (error.keyword === 'required') {
    base.push(String((error.params as { missingProperty: string }).missingProperty));
  }
  return base.length === 0 ? '(root)' : base.join('.');
}

function valueAt(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Keys whose values are secrets: a rejected value there is shown masked (…1234), never in full. */
const SECRET_KEY = /(secret|password|token|pepper|apikey|api-key|privatekey|credential)/i;

/**
 * A rejected value as the message shows it: secrets masked, and a URL's password masked wherever it
 * appears (a store URL that fails the schema still carries its credentials).
 */
function show(value: unknown, key: string): string {
  if (typeof value === 'string') {
    if (SECRET_KEY.test(key.replace(/[._]/g, ''))) return JSON.stringify(maskSecret(value));
    if (/:\/\/\S*@/.test(value)) value = maskUrlPassword(value);
  }
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function describe(error: ErrorObject, root: unknown): string {
  const key = keyPath(error);
  switch (error.keyword) {
    case 'additionalProperties':
      return `${key}: unknown key (not part of the configuration schema)`;
    case 'required':
      return `${key}: is required`;
    case 'anyOf':
    case 'const':
    case 'enum': {
      const allowed = allowedValues(error);
      return `${key}: ${show(valueAt(root, error.instancePath), key)} is invalid: expected ${allowed}`;
    }
    default:
      return `${key}: ${show(valueAt(root, error.instancePath), key)} is invalid: ${error.message ?? 'rejected'}`;
  }
}

function allowedValues(error: ErrorObject): string {
  const schema = error.parentSchema as
    { anyOf?: { const?: unknown }[]; enum?: unknown[] } | undefined;
  const values = schema?.anyOf?.map((s) => s.const) ?? schema?.enum;
  return values && values.every((v) => v !== undefined)
    ? `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`
    : (error.message ?? 'a different value');
}
