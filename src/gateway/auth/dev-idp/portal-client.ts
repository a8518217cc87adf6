// The portal as a client of the development authorization server. In development, with no `admin.oidc`
// configured, the portal signs users in through the same provider MCP clients use (`<gateway>/dev-idp`):
// the server registers this public client (PKCE, no secret) at startup, and the portal uses it. Both sides
// derive it from configuration here, so they agree on the client id and the callback addresses.
import type { FrozenConfig } from '../../../config/schema.js';
import type { AdminOidcConfig } from '../../../config/admin-portal.js';
import { devIdpIssuer } from '../settings.js';

export const DEV_PORTAL_CLIENT_ID = 'toolgate-portal';
const CALLBACK_PATH = '/portal/auth/callback';

/** The portal's callback on the admin listener, by loopback name and address (either may be browsed). */
export function devPortalRedirectUris(config: FrozenConfig): string[] {
  const { host, port } = config.admin;
  const hosts = new Set<string>();
  if (host === '0.0.0.0' || host === '::' || host === '127.0.0.1' || host === 'localhost') {
    hosts.add('127.0.0.1');
    hosts.add('localhost');
  } else hosts.add(host.includes(':') ? `[${host}]` : host);
  return [...hosts].map((h) => `http://${h}:${port}${CALLBACK_PATH}`);
}

/**
 * The portal's sign-in provider when none is configured: the development authorization server, when it
 * runs (development, `gateway.auth.devIdentityProvider.enabled`) and the admin plane is on.
 */
export function devPortalOidc(config: FrozenConfig): AdminOidcConfig | undefined {
  if (config.admin.oidc !== undefined || !config.admin.enabled) return undefined;
  if (!config.resolved.devIdentityProvider) return undefined;
  return {
    issuer: devIdpIssuer(config),
    clientId: DEV_PORTAL_CLIENT_ID,
    scopes: ['openid', 'profile'],
    algorithms: ['ES256'],
  };
}
