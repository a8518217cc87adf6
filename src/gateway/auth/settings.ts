// Derives the gateway's identity settings from configuration: its public URLs, the user-JWT rules and
// whether the development identity provider runs. Used by the gateway and by the `token` command so both
// agree on issuer and audience.
import type { FrozenConfig } from '../../config/schema.js';
import {
  PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS,
  resolveCheckedJwtConfig,
  type JwtConfig,
} from '../../config/gateway-jwt.js';

export const DEV_IDP_PATH = '/dev-idp';

export interface IdentitySettings {
  /** Externally visible base URL of the gateway (no trailing slash). */
  readonly baseUrl: string;
  /** The MCP endpoint; also the default JWT audience (the resource the token is for). */
  readonly mcpUrl: string;
  /** User-JWT validation, or null when no identity provider is configured (every caller anonymous). */
  readonly jwt: JwtConfig | null;
  readonly devIdp: { readonly enabled: boolean; readonly issuer: string };
}

export function gatewayBaseUrl(config: FrozenConfig, boundPort?: number): string {
  if (config.gateway.publicUrl !== undefined) return config.gateway.publicUrl.replace(/\/+$/, '');
  const host =
    config.gateway.host === '0.0.0.0' || config.gateway.host === '::'
      ? '127.0.0.1'
      : config.gateway.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${boundPort ?? config.gateway.port}`;
}

export function resolveIdentitySettings(
  config: FrozenConfig,
  boundPort?: number,
): IdentitySettings {
  const baseUrl = gatewayBaseUrl(config, boundPort);
  const mcpUrl = `${baseUrl}/mcp`;
  const auth = config.gateway.auth;
  const devEnabled = auth.devIdentityProvider.enabled ?? config.environment === 'development';
  const devIssuer = `${baseUrl}${DEV_IDP_PATH}`;
  let jwt: JwtConfig | null = null;
  const lifetime =
    config.environment === 'production' ? PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS : undefined;
  if (auth.jwt !== undefined) jwt = resolveCheckedJwtConfig(auth.jwt, lifetime);
  else if (devEnabled) jwt = resolveCheckedJwtConfig({ issuer: devIssuer, audience: mcpUrl });
  return { baseUrl, mcpUrl, jwt, devIdp: { enabled: devEnabled, issuer: devIssuer } };
}
