// The developer catalogue (issue 27, "A catalogue for developers"): the tools and products a developer
// may request, built from the admin plane's tool list and `gateway.products`. Only approved tools whose
// definition is not held back are offered; a product is offered with its offered tools, when it has any.
// Pure: the page and the request form's server-side check use the same answer.
import type { AdminTool } from '../../admin/tool-settings.js';
import type { JsonObject, SecurityClass, Tool, ToolAnnotations } from '../../catalogue/types.js';

export interface OfferedTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly backend: string;
  /** The tool's name at its upstream MCP server (issue 28), for a federated tool. */
  readonly upstreamTool?: string | undefined;
  /** As the docs name them: public, user-scoped, optional. */
  readonly securityClass: SecurityClass;
  /** OAuth scopes a user token must carry to call the tool (empty: none beyond a valid token). */
  readonly scopes: readonly string[];
  readonly annotations: ToolAnnotations;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject | undefined;
  /** The products (bundles) that include the tool. */
  readonly products: readonly string[];
}

export interface OfferedProduct {
  readonly name: string;
  /** The product's tools that are offered, in the product's order. */
  readonly tools: readonly string[];
}

export interface DeveloperCatalogue {
  /** Sorted by name. */
  readonly tools: readonly OfferedTool[];
  readonly products: readonly OfferedProduct[];
  readonly byName: ReadonlyMap<string, OfferedTool>;
}

/** Whether the gateway serves the tool to agents now: approved and not held back (issue 25). */
export function isOffered(tool: AdminTool): boolean {
  return tool.approval.state === 'approved' && !tool.definition.heldBack;
}

export function developerCatalogue(
  entries: readonly { readonly tool: AdminTool; readonly definition: Tool }[],
  products: Readonly<Record<string, readonly string[]>>,
): DeveloperCatalogue {
  const offeredNames = new Set(entries.filter((e) => isOffered(e.tool)).map((e) => e.tool.name));
  const offeredProducts: OfferedProduct[] = Object.entries(products)
    .map(([name, tools]) => ({ name, tools: tools.filter((t) => offeredNames.has(t)) }))
    .filter((p) => p.tools.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name));
  const tools: OfferedTool[] = entries
    .filter((e) => offeredNames.has(e.tool.name))
    .map(({ tool, definition }) => ({
      name: tool.name,
      title: definition.title ?? definition.annotations.title,
      description: definition.description,
      backend: definition.backend,
      upstreamTool: definition.mcp?.name,
      securityClass: definition.securityClass,
      scopes: definition.scopes ?? [],
      annotations: definition.annotations,
      inputSchema: definition.inputSchema,
      outputSchema: definition.outputSchema,
      products: offeredProducts.filter((p) => p.tools.includes(tool.name)).map((p) => p.name),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { tools, products: offeredProducts, byName: new Map(tools.map((t) => [t.name, t])) };
}

/**
 * The names of a request that the catalogue does not offer (tool names, or `product:NAME`); empty when
 * every name is offered. The portal refuses a request naming any of them, at the field `tools`.
 */
export function unknownNames(catalogue: DeveloperCatalogue, names: readonly string[]): string[] {
  const products = new Set(catalogue.products.map((p) => p.name));
  return names.filter((name) =>
    name.startsWith('product:')
      ? !products.has(name.slice('product:'.length))
      : !catalogue.byName.has(name),
  );
}
