// Where each environment's gateway is, for the `mcpServers` block a requester collects with their keys
// and for the portal's "Try it" calls (issue 27, trap 5). An environment's URL is `admin.mcpUrls.<env>`;
// the environment this deployment serves (`environment`) falls back to this deployment's own MCP URL;
// any other environment without a URL has no gateway: null, never the local gateway's URL, which would
// refuse its keys (docs/decisions.md, D-299).
import type { Environment } from '../auth/subscriptions/types.js';

export interface GatewayUrlSettings {
  /** The environment this deployment's gateway serves (top-level `environment`). */
  readonly served: Environment;
  /** This deployment's MCP endpoint (gateway.publicUrl or its listener, plus gateway.mcp.path). */
  readonly localMcpUrl: string;
  /** `admin.mcpUrls`: the MCP endpoint of each environment's gateway, where configured. */
  readonly configured: Readonly<Partial<Record<Environment, string | undefined>>>;
}

/** The MCP endpoint of `environment`'s gateway, or null when none is configured for it. */
export function gatewayUrlOf(
  settings: GatewayUrlSettings,
  environment: Environment,
): string | null {
  const configured = settings.configured[environment];
  if (configured !== undefined) return configured;
  return environment === settings.served ? settings.localMcpUrl : null;
}

/** The configuration key that names `environment`'s gateway (shown when it is missing). */
export function gatewayUrlKey(environment: Environment): string {
  return `admin.mcpUrls.${environment}`;
}
