// An upstream MCP server's tools/list items → catalogue tools (issue 28, "Federation"). Pure: the items as
// the upstream sent them and the backend's configuration in, the tools the gateway offers out, each named
// `<prefix><sanitized upstream name>` and reshaped by the backend's `tools` overrides exactly as an OpenAPI
// tool is (catalogue/overrides.ts). An item the gateway cannot offer faithfully (no usable name, a schema
// that is not a JSON Schema object, an override that no longer fits it) is left out with a warning naming
// it: the other tools of the upstream stay offered.
import { toolPrefixOf } from '../../config/gateway-federation.js';
import { isPlainObject } from '../../shared/is-plain-object.js';
import { createAjv } from '../../shared/json-schema/ajv.js';
import { catalogueOf } from '../catalogue/build.js';
import { TOOL_NAME } from '../catalogue/names.js';
import { applyOverrides, type BackendOverrides } from '../catalogue/overrides.js';
import type { JsonObject, SecurityClass, Tool, ToolAnnotations } from '../catalogue/types.js';
import { GatewayError } from '../errors.js';

/** What of an MCP backend's configuration shapes its tools. */
export interface UpstreamToolsBackend {
  readonly name: string;
  readonly mcp: {
    readonly toolPrefix?: string | undefined;
    readonly securityClass: SecurityClass;
  };
  /** Overrides keyed by the tool's name at the upstream (gateway.backends[].tools). */
  readonly tools?: BackendOverrides | undefined;
}

export interface UpstreamTools {
  /** In the upstream's order. */
  readonly tools: readonly Tool[];
  /** One line per item left out or renamed, for the operator's log. */
  readonly warnings: readonly string[];
}

/** The members of a tool an MCP client may use that the catalogue has no field of its own for. */
const EXTRA_KEYS = ['execution', 'icons', '_meta'] as const;
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
/** MCP 2025-11-25 allows tool names of 1 to 128 characters; longer is not a name the gateway takes. */
const MAX_UPSTREAM_NAME = 128;

// The dialect and settings the call path validates arguments with (mcp/arguments.ts): a schema that does
// not compile here would fail every call, so the tool is not offered at all.
const ajv = createAjv({ dialect: '2020-12', validateSchema: false });

export function upstreamTools(
  backend: UpstreamToolsBackend,
  items: readonly unknown[],
): UpstreamTools {
  const prefix = toolPrefixOf(backend);
  const overrides = backend.tools ?? {};
  const tools: Tool[] = [];
  const warnings: string[] = [];
  const names = new Map<string, string>(); // catalogue name → upstream name
  const upstreamNames = new Set<string>();
  items.forEach((item, index) => {
    const where = `backend ${backend.name} tools/list[${index}]`;
    const mapped = toolOf(backend, prefix, item, where);
    if ('skipped' in mapped) {
      warnings.push(mapped.skipped);
      return;
    }
    let tool = mapped.tool;
    const upstreamName = tool.operationId as string;
    if (upstreamNames.has(upstreamName)) {
      warnings.push(`${where}: skipped (the upstream lists "${upstreamName}" twice)`);
      return;
    }
    upstreamNames.add(upstreamName);
    const override = overrides[upstreamName];
    if (override !== undefined) {
      try {
        // The same reshaping as an OpenAPI tool's; its errors name the configuration key.
        const single = applyOverrides(
          catalogueOf([tool], []),
          new Map([[backend.name, { [upstreamName]: override }]]),
        );
        tool = single.tools[0] as Tool;
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        // Offering the tool without the override could expose an argument the operator meant to fix.
        warnings.push(`${where} ("${upstreamName}"): skipped (${error.message})`);
        return;
      }
    }
    if (!TOOL_NAME.test(tool.name)) {
      warnings.push(
        `${where} ("${upstreamName}"): skipped (its name with the prefix, "${tool.name}", is not 1-64 characters of A-Z a-z 0-9 _ -; rename it in gateway.backends[${backend.name}].tools.${upstreamName}.name)`,
      );
      return;
    }
    const other = names.get(tool.name);
    if (other !== undefined) {
      warnings.push(
        `${where} ("${upstreamName}"): skipped (its name "${tool.name}" is already that of upstream tool "${other}")`,
      );
      return;
    }
    if (override?.name === undefined && tool.name !== prefix + upstreamName)
      warnings.push(`${where}: tool name "${tool.name}" (upstream name "${upstreamName}")`);
    names.set(tool.name, upstreamName);
    tools.push(tool);
  });
  return { tools, warnings };
}

type Mapped = { readonly tool: Tool } | { readonly skipped: string };

function toolOf(
  backend: UpstreamToolsBackend,
  prefix: string,
  item: unknown,
  where: string,
): Mapped {
  if (!isPlainObject(item)) return { skipped: `${where}: skipped (not an object)` };
  const upstreamName = item.name;
  if (
    typeof upstreamName !== 'string' ||
    upstreamName.length === 0 ||
    upstreamName.length > MAX_UPSTREAM_NAME
  )
    return { skipped: `${where}: skipped (name is not a string of 1 to 128 characters)` };
  const at = `${where} ("${upstreamName}")`;
  const sanitized = sanitizeUpstreamName(upstreamName);
  if (sanitized === '')
    return { skipped: `${at}: skipped (the name has no letter, digit, "_" or "-")` };
  const input = schemaOf(item.inputSchema, 'inputSchema', true);
  if (typeof input === 'string') return { skipped: `${at}: skipped (${input})` };
  const output = schemaOf(item.outputSchema, 'outputSchema', false);
  if (typeof output === 'string') return { skipped: `${at}: skipped (${output})` };
  for (const key of ['title', 'description'] as const)
    if (item[key] !== undefined && typeof item[key] !== 'string')
      return { skipped: `${at}: skipped (${key} is not a string)` };
  if (item.annotations !== undefined && !isPlainObject(item.annotations))
    return { skipped: `${at}: skipped (annotations is not an object)` };
  const extra: Record<string, unknown> = {};
  for (const key of EXTRA_KEYS) if (item[key] !== undefined) extra[key] = item[key];
  return {
    tool: {
      name: prefix + sanitized,
      title: item.title as string | undefined,
      description: item.description as string | undefined,
      inputSchema: input as JsonObject,
      outputSchema: output,
      annotations: annotationsOf(item.annotations),
      securityClass: backend.mcp.securityClass,
      backend: backend.name,
      // The upstream name is the tool's key in configuration (approve, tools overrides, money), as an
      // operationId is an OpenAPI tool's: the catalogue's key-by-operationId code serves both.
      operationId: upstreamName,
      mcp: Object.keys(extra).length === 0 ? { name: upstreamName } : { name: upstreamName, extra },
    },
  };
}

/**
 * `[A-Za-z0-9_-]` only (an upstream may use dots, MCP 2025-11-25), runs of `_` collapsed, none at either
 * end; empty when nothing is left. Not cut to 64 characters: a name too long with its prefix is reported
 * (and can be renamed), never silently shortened into another tool's name.
 */
function sanitizeUpstreamName(raw: string): string {
  return raw
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The schema, undefined when absent and optional, or why it is not usable. */
function schemaOf(
  value: unknown,
  key: 'inputSchema' | 'outputSchema',
  required: boolean,
): JsonObject | undefined | string {
  if (value === undefined) return required ? `${key} is missing` : undefined;
  // MCP server/tools: both schemas are JSON Schema objects whose root type is "object".
  if (!isPlainObject(value)) return `${key} is not an object`;
  if (value.type !== 'object') return `${key} does not have type "object"`;
  try {
    ajv.compile(value);
  } catch (error) {
    return `${key} is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    // Each refresh brings new schema objects: Ajv's cache (and its `$id` registry) would only grow.
    ajv.removeSchema(value);
  }
  return value;
}

/** The hints MCP defines, each kept only with its declared type (anything else is not a hint). */
function annotationsOf(value: unknown): ToolAnnotations {
  if (!isPlainObject(value)) return {};
  const out: Record<string, unknown> = {};
  if (typeof value.title === 'string' && value.title !== '') out.title = value.title;
  for (const hint of HINTS) if (typeof value[hint] === 'boolean') out[hint] = value[hint];
  return out as ToolAnnotations;
}
