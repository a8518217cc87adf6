// Tool settings stored by the admin API (gateway_tool_settings), applied over the catalogue as configured:
// the same reshaping as configuration overrides (name, title, description, annotations, hidden
// arguments), plus the tool's security class. Keyed by the tool's name as configuration leaves it (its
// "configured name"), so a stored rename never loses its settings. Pure.
import type { ToolOverride } from '../../config/gateway-mcp.js';
import { GatewayError } from '../errors.js';
import { catalogueOf } from './build.js';
import { applyOverrides, type BackendOverrides } from './overrides.js';
import type { Catalogue, SecurityClass, Tool } from './types.js';

export interface StoredToolSettings extends ToolOverride {
  readonly securityClass?: SecurityClass | undefined;
}

/** Settings by configured tool name. */
export type ToolSettingsMap = ReadonlyMap<string, StoredToolSettings>;

export interface SettledCatalogue {
  readonly catalogue: Catalogue;
  /** Current tool name → configured name (the key of its settings). */
  readonly configuredName: ReadonlyMap<string, string>;
}

/**
 * The catalogue with the stored settings applied. Settings of a tool the documents no longer have are
 * skipped; settings that cannot be applied (an argument the tool lacks, a name taken twice) throw a
 * GatewayError naming the tool.
 */
export function applyToolSettings(
  catalogue: Catalogue,
  settings: ToolSettingsMap,
): SettledCatalogue {
  const overrides = new Map<string, Record<string, ToolOverride>>();
  const security = new Map<string, SecurityClass>();
  const origin = new Map<string, string>(); // override key → configured name
  for (const [name, entry] of settings) {
    const tool = catalogue.byName.get(name);
    if (!tool) continue;
    const { securityClass, ...override } = entry;
    const key = tool.operationId ?? tool.name;
    const forBackend = overrides.get(tool.backend) ?? {};
    forBackend[key] = override;
    overrides.set(tool.backend, forBackend);
    origin.set(`${tool.backend}\u0000${key}`, name);
    if (securityClass !== undefined) security.set(name, securityClass);
  }
  let applied: Catalogue;
  try {
    applied = applyOverrides(catalogue, overrides as ReadonlyMap<string, BackendOverrides>);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    // The overrides name configuration keys; stored settings are named by tool instead.
    throw new GatewayError(
      'CATALOGUE_LOAD_FAILED',
      error.message.replace(/^gateway\.backends\[[^\]]*\]\.tools\.?/, 'stored tool settings of '),
    );
  }
  const configuredName = new Map<string, string>();
  const tools: Tool[] = applied.tools.map((tool) => {
    const name = origin.get(`${tool.backend}\u0000${tool.operationId ?? tool.name}`) ?? tool.name;
    configuredName.set(tool.name, name);
    const securityClass = security.get(name);
    return securityClass === undefined || securityClass === tool.securityClass
      ? tool
      : { ...tool, securityClass };
  });
  return {
    catalogue: security.size === 0 ? applied : catalogueOf(tools, applied.warnings),
    configuredName,
  };
}
