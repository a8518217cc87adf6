// Tool bundles (issue 28, `gateway.bundles.<name>`): a chosen set of tools across backends served at
// `<gateway.mcp.path>/<name>`, so a team's client lists only its tools. A bundle's entries are expanded
// here into the BundleScope the request path reads (caller.ts `mayUseTool`): `backend:NAME` is every tool
// that backend serves now, `product:NAME` the product's tools (gateway.products), a plain name itself. The
// catalogue changes while the gateway runs (a reload, an upstream MCP server's list_changed), so the
// expansion is redone whenever the directory's revision or catalogue moves, and kept until then.
import type { BundleConfig } from '../../config/gateway-federation.js';
import type { BundleScope } from '../caller.js';
import type { Catalogue } from '../catalogue/types.js';
import { protectedResourceMetadataUrls } from '../auth/jwt/protected-resource.js';

const BACKEND_PREFIX = 'backend:';
const PRODUCT_PREFIX = 'product:';

/** What a bundle is expanded against: the live tool directory (catalogue/directory.ts) fits. */
export interface CatalogueView {
  /** Moves whenever the catalogue or what is offered may have changed. */
  readonly revision: number;
  readonly catalogue: Catalogue;
}

/**
 * The bundle's scope against one catalogue: `backend:NAME` → every tool whose backend is NAME,
 * `product:NAME` → the product's tool names, a name → itself (a name the catalogue does not have matches
 * nothing until a tool of that name appears). Approval is not decided here: the directory still offers only
 * approved tools, and the subscription still limits them (mayUseTool intersects all three).
 */
export function expandBundle(
  name: string,
  bundle: BundleConfig,
  catalogue: Catalogue,
  products: Readonly<Record<string, readonly string[]>>,
): BundleScope {
  const tools = new Set<string>();
  const backends = new Set<string>();
  for (const entry of bundle.tools) {
    if (entry.startsWith(BACKEND_PREFIX)) backends.add(entry.slice(BACKEND_PREFIX.length));
    else if (entry.startsWith(PRODUCT_PREFIX))
      for (const tool of products[entry.slice(PRODUCT_PREFIX.length)] ?? []) tools.add(tool);
    else tools.add(entry);
  }
  if (backends.size > 0)
    for (const tool of catalogue.tools) if (backends.has(tool.backend)) tools.add(tool.name);
  return {
    name,
    tools,
    resources: [...bundle.resources],
    prompts: new Set(bundle.prompts),
  };
}

/** The bundle's resource identifier (RFC 8707 / RFC 9728 `resource`): `<MCP URL>/<name>`. */
export function bundleResourceUrl(mcpUrl: string, name: string): string {
  return `${mcpUrl.replace(/\/+$/, '')}/${name}`;
}

/** The bundle's RFC 9728 metadata URL (path-suffixed: `/.well-known/oauth-protected-resource/mcp/<name>`). */
export function bundleMetadataUrl(mcpUrl: string, name: string): string {
  return protectedResourceMetadataUrls(bundleResourceUrl(mcpUrl, name)).pathSuffixed;
}

/**
 * The audiences a user token presented at a bundle's endpoint may carry (one suffices). RFC 8707: a token
 * is for one resource, so a token asked for the plain MCP endpoint (audience the MCP URL) is not one for a
 * bundle, nor the other way round: the bundle's own URL is required. An operator's audience that is not
 * the MCP URL (an identity provider without resource indicators, one audience for the whole gateway) names
 * no endpoint, and is accepted at every bundle as at the plain endpoint (docs/configuration.md, "Tool
 * bundles").
 */
export function bundleAudiences(mcpUrl: string, name: string, configured: string): string[] {
  const own = bundleResourceUrl(mcpUrl, name);
  const plain = mcpUrl.replace(/\/+$/, '');
  return configured.replace(/\/+$/, '') === plain || configured === own ? [own] : [own, configured];
}

/** Every configured bundle, its scope expanded against the live catalogue (cached per revision). */
export class Bundles {
  private cached:
    | {
        readonly revision: number;
        readonly catalogue: Catalogue;
        readonly scopes: Map<string, BundleScope>;
      }
    | undefined;

  constructor(
    private readonly configs: Readonly<Record<string, BundleConfig>>,
    private readonly products: Readonly<Record<string, readonly string[]>>,
    private readonly view: CatalogueView,
  ) {}

  /** The configured bundle names, sorted. */
  names(): string[] {
    return Object.keys(this.configs).sort();
  }

  config(name: string): BundleConfig | undefined {
    return Object.hasOwn(this.configs, name) ? this.configs[name] : undefined;
  }

  /** The bundle's scope now; undefined for a name no bundle has. */
  scope(name: string): BundleScope | undefined {
    const config = this.config(name);
    if (config === undefined) return undefined;
    const { revision, catalogue } = this.view;
    if (
      this.cached === undefined ||
      this.cached.revision !== revision ||
      this.cached.catalogue !== catalogue
    )
      this.cached = { revision, catalogue, scopes: new Map() };
    let scope = this.cached.scopes.get(name);
    if (scope === undefined) {
      scope = expandBundle(name, config, catalogue, this.products);
      this.cached.scopes.set(name, scope);
    }
    return scope;
  }

  /** The scope of a configured bundle (its endpoint exists only for configured names). */
  requireScope(name: string): BundleScope {
    const scope = this.scope(name);
    if (scope === undefined) throw new Error(`no tool bundle is named ${name}`);
    return scope;
  }
}
