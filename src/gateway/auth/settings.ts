// The gateway's identity settings for a loaded configuration: its public URLs, the user-JWT rules in force
// before any stored version, and the development identity provider. Nothing is resolved here: the file's
// JWT slice was resolved once by loadConfig (`config.resolved`), and the addresses follow from the
// configuration with its bound port (src/config/gateway-identity.ts). Used by the gateway, the admin plane
// and the `token`, `client-config` and `start` commands, so all of them agree on issuer and audience.
import type { FrozenConfig } from '../../config/schema.js';
import { developmentJwtConfig, type JwtConfig } from '../../config/gateway-jwt.js';
import { gatewayBaseUrl, mcpUrl } from '../../config/gateway-identity.js';

export const DEV_IDP_PATH = '/dev-idp';

export interface IdentitySettings {
  /** Externally visible base URL of the gateway (no trailing slash). */
  readonly baseUrl: string;
  /** The MCP endpoint (`gateway.mcp.path`); also the default JWT audience (the resource the token is for). */
  readonly mcpUrl: string;
  /** User-JWT validation, or null when no identity provider is configured (every caller anonymous). */
  readonly jwt: JwtConfig | null;
  readonly devIdp: { readonly enabled: boolean; readonly issuer: string };
}

/** The development identity provider's issuer: `<gateway base URL>/dev-idp`. */
export function devIdpIssuer(config: FrozenConfig): string {
  return `${gatewayBaseUrl(config)}${DEV_IDP_PATH}`;
}

/**
 * The file's JWT settings (`gateway.auth.jwt`, as loadConfig resolved them), else the development
 * provider's when it runs (issuer `<gateway>/dev-idp`, audience the MCP URL), else none.
 */
export function resolveIdentitySettings(config: FrozenConfig): IdentitySettings {
  const baseUrl = gatewayBaseUrl(config);
  const resource = mcpUrl(config);
  const issuer = devIdpIssuer(config);
  const enabled = config.resolved.devIdentityProvider;
  const jwt = config.resolved.jwt ?? (enabled ? developmentJwtConfig(issuer, resource) : null);
  return { baseUrl, mcpUrl: resource, jwt, devIdp: { enabled, issuer } };
}
