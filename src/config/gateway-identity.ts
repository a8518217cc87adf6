// The gateway's identity settings as configuration decides them. loadConfig resolves, once, the parts that
// do not depend on the port the gateway binds (`config.resolved`); the gateway's addresses follow from the
// configuration with its bound port (serve.ts puts a reserved port into it before anything is built), and
// are built here and nowhere else.
import {
  PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS,
  resolveCheckedJwtConfig,
  type JwtConfig,
  type JwtConfigInput,
} from './gateway-jwt.js';
import type { DeepReadonly } from './deep-readonly.js';

/** What loadConfig derives from the file once: `config.resolved`. */
export interface ResolvedSettings {
  /** `gateway.auth.jwt` checked and completed (in production with the default lifetime bound); null without one. */
  readonly jwt: JwtConfig | null;
  /** Whether the development identity provider runs: `gateway.auth.devIdentityProvider.enabled`, by default in development only. */
  readonly devIdentityProvider: boolean;
  /** The token lifetime bound of JWT settings that name none — the file's and those stored through the admin API: one day in production. */
  readonly defaultMaxTokenLifetimeSeconds: number | undefined;
}

interface IdentityInput {
  readonly environment: string;
  readonly gateway: {
    readonly auth: {
      readonly jwt?: DeepReadonly<JwtConfigInput> | undefined;
      readonly devIdentityProvider: { readonly enabled?: boolean | undefined };
    };
  };
}

/** Run by loadConfig on the validated configuration; a problem is a ConfigError naming the key. */
export function resolveSettings(config: IdentityInput): ResolvedSettings {
  const production = config.environment === 'production';
  const defaultMaxTokenLifetimeSeconds = production
    ? PRODUCTION_MAX_TOKEN_LIFETIME_SECONDS
    : undefined;
  const { jwt, devIdentityProvider } = config.gateway.auth;
  return {
    jwt: jwt === undefined ? null : resolveCheckedJwtConfig(jwt, defaultMaxTokenLifetimeSeconds),
    devIdentityProvider: devIdentityProvider.enabled ?? config.environment === 'development',
    defaultMaxTokenLifetimeSeconds,
  };
}

interface AddressInput {
  readonly gateway: {
    readonly publicUrl?: string | undefined;
    readonly host: string;
    readonly port: number;
    readonly mcp: { readonly path: string };
  };
}

/** The gateway's externally visible base URL (no trailing slash): `gateway.publicUrl`, else its listener. */
export function gatewayBaseUrl(config: AddressInput): string {
  if (config.gateway.publicUrl !== undefined) return config.gateway.publicUrl.replace(/\/+$/, '');
  const host =
    config.gateway.host === '0.0.0.0' || config.gateway.host === '::'
      ? '127.0.0.1'
      : config.gateway.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${config.gateway.port}`;
}

/**
 * The MCP endpoint's URL (`gateway.mcp.path` under the base URL): the resource clients call and the
 * printed client configuration names, the default JWT audience, the `resource` of the protected-resource
 * metadata and the resource the development authorization server issues tokens for.
 */
export function mcpUrl(config: AddressInput): string {
  return `${gatewayBaseUrl(config)}${config.gateway.mcp.path}`;
}

interface AdminAddressInput {
  readonly admin: {
    readonly publicUrl?: string | undefined;
    readonly host: string;
    readonly port: number;
  };
}

/**
 * The admin listener's externally visible base URL (no trailing slash): `admin.publicUrl`, else its
 * listener (a loopback or every-interface listener as 127.0.0.1). Absolute portal links that leave the
 * portal — the approval page an agent relays — are built on it, never on a request's Host.
 */
export function adminBaseUrl(config: AdminAddressInput): string {
  if (config.admin.publicUrl !== undefined) return config.admin.publicUrl.replace(/\/+$/, '');
  const host =
    config.admin.host === '0.0.0.0' ||
    config.admin.host === '::' ||
    config.admin.host === 'localhost'
      ? '127.0.0.1'
      : config.admin.host;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${config.admin.port}`;
}
