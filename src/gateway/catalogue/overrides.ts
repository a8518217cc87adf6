// Operator overrides (gateway.backends[].tools): reshape an operation's tool without editing the OpenAPI
// document — its name, title, description and annotations, and arguments hidden from agents and always sent
// with a fixed value. Pure: a catalogue and the overrides in, a new catalogue out, or a GatewayError naming
// the configuration key that cannot be applied (an override that silently misses would leave a tool the
// operator meant to restrict as it was).
import type { ToolOverride } from '../../config/gateway-mcp.js';
import type { DeepReadonly } from '../../config/schema.js';
import { GatewayError } from '../errors.js';
import { catalogueOf } from './build.js';
import type { Catalogue, JsonObject, Tool } from './types.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { createAjv } from '../../shared/json-schema/ajv.js';

export type BackendOverrides = Readonly<Record<string, DeepReadonly<ToolOverride>>>;

const ajv = createAjv({ allErrors: false });

export function applyOverrides(
  catalogue: Catalogue,
  overrides: ReadonlyMap<string, BackendOverrides>,
): Catalogue {
  if ([...overrides.values()].every((o) => Object.keys(o).length === 0)) return catalogue;
  const byKey = new Map<string, Tool>();
  for (const tool of catalogue.tools)
    byKey.set(`${tool.backend}\0${tool.operationId ?? tool.name}`, tool);
  const replaced = new Map<Tool, Tool>();
  for (const [backend, entries] of overrides) {
    for (const [key, override] of Object.entries(entries)) {
      const where = `gateway.backends[${backend}].tools.${key}`;
      const tool = byKey.get(`${backend}\0${key}`);
      if (!tool) throw invalid(where, 'no operation of this backend has this operationId');
      replaced.set(tool, overridden(tool, override, where));
    }
  }
  const tools = catalogue.tools.map((t) => replaced.get(t) ?? t);
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name))
      throw invalid(
        `gateway.backends[${tool.backend}].tools`,
        `two tools would be named "${tool.name}"`,
      );
    seen.add(tool.name);
  }
  return catalogueOf(tools, catalogue.warnings);
}

function overridden(tool: Tool, override: DeepReadonly<ToolOverride>, where: string): Tool {
  let inputSchema = tool.inputSchema;
  let fixedArguments = tool.fixedArguments;
  const hidden = override.hidden ?? {};
  if (Object.keys(hidden).length > 0) {
    const properties = isPlainObject(inputSchema.properties) ? { ...inputSchema.properties } : {};
    const required = Array.isArray(inputSchema.required)
      ? (inputSchema.required as unknown[]).filter((r) => !(String(r) in hidden))
      : undefined;
    for (const [argument, value] of Object.entries(hidden)) {
      const schema = properties[argument];
      if (!isPlainObject(schema))
        throw invalid(`${where}.hidden.${argument}`, `the tool has no argument "${argument}"`);
      const check = ajv.compile(schema);
      if (!check(value))
        throw invalid(
          `${where}.hidden.${argument}`,
          `the fixed value does not satisfy the argument's schema (${ajv.errorsText(check.errors)})`,
        );
      delete properties[argument];
    }
    inputSchema = { ...inputSchema, properties } as JsonObject;
    if (required !== undefined) {
      if (required.length > 0) inputSchema.required = required;
      else delete inputSchema.required;
    }
    fixedArguments = { ...fixedArguments, ...hidden };
  }
  return {
    ...tool,
    name: override.name ?? tool.name,
    title: override.title ?? tool.title,
    description: override.description ?? tool.description,
    annotations: { ...tool.annotations, ...override.annotations },
    inputSchema,
    ...(fixedArguments === undefined ? {} : { fixedArguments }),
    ...(override.scopes === undefined ? {} : { scopes: [...override.scopes] }),
  };
}

function invalid(where: string, problem: string): GatewayError {
  return new GatewayError('CATALOGUE_LOAD_FAILED', `${where}: ${problem}`);
}
