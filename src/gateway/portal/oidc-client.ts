// The portal's OpenID Connect relying party, on openid-client (a maintained, certified client): the
// authorization code flow with PKCE (S256), state and nonce; the ID token's signature is verified with the
// provider's JWKS (non-repudiation checks on, so also over plain-http loopback providers), its issuer,
// audience, expiry and nonce by the library, and its algorithm against admin.oidc.algorithms here. The
// provider's URLs must use HTTPS, or plain http on a loopback host (local development and tests).
import { decodeProtectedHeader } from 'jose';
import * as openid from 'openid-client';
import type { AdminOidcConfig } from '../../config/admin-portal.js';
import { AuthError } from '../auth/jwt/errors.js';
import { assertSecureUrl } from '../auth/jwt/secure-url.js';

/** Seconds any request to the provider may take. */
const TIMEOUT_SECONDS = 5;
/** Seconds of clock difference tolerated on the ID token's times. */
const CLOCK_TOLERANCE_SECONDS = 60;

/** What the browser is sent to, and what must be kept (server-side) until it comes back. */
export interface AuthorizationStart {
  readonly url: string;
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export interface OidcClient {
  start(redirectUrl: string): Promise<AuthorizationStart>;
  /** The verified ID token's claims, for the provider's answer (the callback's query parameters). */
  finish(input: {
    readonly redirectUrl: string;
    readonly parameters: URLSearchParams;
    readonly state: string;
    readonly nonce: string;
    readonly codeVerifier: string;
  }): Promise<Readonly<Record<string, unknown>>>;
}

function failed(message: string, cause?: unknown): AuthError {
  return new AuthError('JWKS_UNAVAILABLE', message, cause === undefined ? undefined : { cause });
}

/** Discovery with the provider, once; a failure is retried at the next sign-in. */
async function discover(config: AdminOidcConfig): Promise<openid.Configuration> {
  const where = assertSecureUrl(
    config.discoveryUrl ?? `${config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
  );
  const execute = [openid.enableNonRepudiationChecks];
  if (where.protocol === 'http:') execute.push(openid.allowInsecureRequests);
  let configuration: openid.Configuration;
  try {
    configuration = await openid.discovery(
      where,
      config.clientId,
      { [openid.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
      config.clientSecret === undefined
        ? openid.None()
        : openid.ClientSecretBasic(config.clientSecret),
      { execute, timeout: TIMEOUT_SECONDS },
    );
  } catch (error) {
    throw failed(`OpenID Connect discovery at ${where.href} failed`, error);
  }
  const metadata = configuration.serverMetadata();
  if (metadata.issuer !== config.issuer)
    throw failed('discovery document "issuer" does not equal the configured issuer');
  for (const name of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    const url = metadata[name];
    if (typeof url !== 'string') throw failed(`discovery document has no "${name}"`);
    assertSecureUrl(url);
  }
  const methods = metadata.code_challenge_methods_supported;
  if (Array.isArray(methods) && !methods.includes('S256'))
    throw failed('the provider does not support PKCE with S256');
  return configuration;
}

export function createOidcClient(config: AdminOidcConfig): OidcClient {
  let configuration: Promise<openid.Configuration> | undefined;
  const provider = () => {
    configuration ??= discover(config).catch((error: unknown) => {
      configuration = undefined; // try again on the next sign-in
      throw error;
    });
    return configuration;
  };

  return {
    async start(redirectUrl) {
      const configured = await provider();
      const state = openid.randomState();
      const nonce = openid.randomNonce();
      const codeVerifier = openid.randomPKCECodeVerifier();
      const url = openid.buildAuthorizationUrl(configured, {
        redirect_uri: redirectUrl,
        scope: config.scopes.join(' '),
        state,
        nonce,
        code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    async finish({ redirectUrl, parameters, state, nonce, codeVerifier }) {
      const configured = await provider();
      // The answer as the provider sent it: the redirect URI (also what the token request names) with
      // the callback's parameters.
      const answer = new URL(redirectUrl);
      answer.search = parameters.toString();
      const tokens = await openid.authorizationCodeGrant(configured, answer, {
        expectedState: state,
        expectedNonce: nonce,
        pkceCodeVerifier: codeVerifier,
      });
      const claims = tokens.claims();
      if (tokens.id_token === undefined || claims === undefined)
        throw failed('the token response has no id_token');
      const { alg } = decodeProtectedHeader(tokens.id_token);
      if (alg === undefined || !config.algorithms.includes(alg))
        throw new AuthError('ALG_NOT_ALLOWED', 'the ID token algorithm is not allowed');
      return claims;
    },
  };
}
