// How the admin plane verifies user tokens: with the identity-provider settings in force — the
// configuration's (or the development provider's) until a version is stored through the admin API, then
// the stored one, picked up within gateway.auth.settingsRefreshMs as every gateway replica does. One object
// per admin app, opened with it and closed with it (app.ts).
//
// The development provider's signing key lives in the data folder (<dataDir>/dev-idp-signing-key.json),
// not only behind the gateway's /dev-idp routes: its public key is given to the verifier directly, so the
// admin plane started alone (`toolgate admin`) verifies development tokens with the same key the gateway
// serves. Discovery stays behind it, for a gateway whose key file is elsewhere.
import { resolveJwtConfig, type JwtConfig } from '../../config/gateway-jwt.js';
import type { FrozenConfig } from '../../config/schema.js';
import type { Database } from '../../shared/db/types.js';
import type { Logger } from '../../shared/log/logger.js';
import { createDevIdp } from '../auth/dev-idp/idp.js';
import type { JwtVerifier } from '../auth/jwt/verify.js';
import { openLiveIdentity } from '../auth/live-identity.js';
import { resolveIdentitySettings, type IdentitySettings } from '../auth/settings.js';

export interface UserTokens {
  /** The verifier of the settings in force; null when no identity provider is configured. */
  verifier(): JwtVerifier | null;
  close(): void;
}

export async function openUserTokens(
  config: FrozenConfig,
  logger: Logger,
  db: Database,
): Promise<UserTokens> {
  const settings = resolveIdentitySettings(config);
  const configured = developmentProvider(config, settings)
    ? await withDevelopmentKey(config, settings.jwt)
    : settings.jwt;
  const identity = await openLiveIdentity(config, logger, db, { ...settings, jwt: configured });
  return {
    verifier: () => identity.jwt?.verifier ?? null,
    close: () => identity.close(),
  };
}

/** The settings are the development provider's (no gateway.auth.jwt, the provider enabled). */
function developmentProvider(
  config: FrozenConfig,
  settings: IdentitySettings,
): settings is IdentitySettings & { readonly jwt: JwtConfig } {
  return settings.jwt !== null && config.resolved.jwt === null && settings.devIdp.enabled;
}

/** The development settings with the provider's public key from the data folder, then discovery. */
async function withDevelopmentKey(config: FrozenConfig, jwt: JwtConfig): Promise<JwtConfig> {
  const idp = await createDevIdp({ dataDir: config.dataDir });
  const [key] = idp.jwks().keys;
  if (key === undefined) return jwt;
  const { discovery, staticKeys: _none, maxTokenLifetimeSeconds, ...tuning } = jwt;
  return resolveJwtConfig({
    ...tuning,
    ...(maxTokenLifetimeSeconds === undefined ? {} : { maxTokenLifetimeSeconds }),
    staticKeys: [{ kid: idp.kid, alg: 'ES256', jwk: { ...key } }],
    discovery: discovery ?? {},
  });
}
