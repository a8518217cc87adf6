// The gateway as an OAuth client of one upstream MCP server's own authorization server (identity mode
// delegation), on openid-client as the portal's sign-in is: discovery (OpenID Connect, else RFC 8414),
// the authorization code flow with PKCE (S256) and state, a nonce when the scopes ask for an ID token
// (then checked by the library with the ID token), the RFC 8707 resource where configured, and the
// refresh grant. Every request has the backend's timeoutMs and a cap on the answer's size; the server's
// URLs must be HTTPS or loopback http.
import * as openid from 'openid-client';
import type { DelegationConfig } from '../../../config/gateway-federation.js';
import { insecureUrlReason } from '../../../shared/secure-url.js';
import type { DelegatedTokens } from './token-cipher.js';

/** Largest answer read from the authorization server (discovery, token responses). */
const MAX_ANSWER_BYTES = 256 * 1024;
const CLOCK_TOLERANCE_SECONDS = 60;

/** The server did not answer usefully (network, timeout, not OAuth): try later, the user need not act. */
export class AuthorizationServerUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthorizationServerUnavailable';
  }
}

/** The server refused a grant (an OAuth error answer: invalid_grant, ...): the user must sign in again. */
export class GrantRefused extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
    this.name = 'GrantRefused';
  }
}

export interface AuthorizationStart {
  readonly url: string;
  readonly state: string;
  readonly nonce?: string | undefined;
  readonly codeVerifier: string;
}

export interface UpstreamAuthorizationServer {
  start(redirectUri: string): Promise<AuthorizationStart>;
  /** The tokens for the server's answer (the callback's query parameters). */
  finish(input: {
    readonly redirectUri: string;
    readonly parameters: URLSearchParams;
    readonly state: string;
    readonly nonce?: string | undefined;
    readonly codeVerifier: string;
  }): Promise<DelegatedTokens>;
  refresh(refreshToken: string, previous: DelegatedTokens): Promise<DelegatedTokens>;
}

function secure(url: string, what: string): URL {
  const reason = insecureUrlReason(url);
  if (reason !== undefined) throw new AuthorizationServerUnavailable(`${what}: ${reason}`);
  return new URL(url);
}

/** fetch with the size cap: the body is read here, at most MAX_ANSWER_BYTES, and handed on whole. */
const cappedFetch: openid.CustomFetch = async (url, options) => {
  const response = await fetch(url, options as RequestInit);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new AuthorizationServerUnavailable(`the answer of ${new URL(url).origin} is too large`);
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (reader === undefined) break;
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new AuthorizationServerUnavailable(`the answer of ${new URL(url).origin} is too large`);
    }
    chunks.push(value);
  }
  const empty = response.status === 204 || response.status === 304;
  return new Response(empty ? null : Buffer.concat(chunks), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

async function discover(backend: string, config: DelegationConfig): Promise<openid.Configuration> {
  const issuer = secure(config.issuer, `gateway.backends (${backend}).identity.delegation.issuer`);
  const execute: ((c: openid.Configuration) => void)[] = [];
  if (issuer.protocol === 'http:') execute.push(openid.allowInsecureRequests);
  const auth =
    config.clientSecret === undefined
      ? openid.None()
      : openid.ClientSecretBasic(config.clientSecret);
  const timeout = Math.max(1, Math.ceil(config.timeoutMs / 1000));
  let lastError: unknown;
  // OpenID Connect discovery first; a plain OAuth server publishes RFC 8414 metadata instead.
  for (const algorithm of ['oidc', 'oauth2'] as const) {
    try {
      const configuration = await openid.discovery(
        issuer,
        config.clientId,
        { [openid.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
        auth,
        { execute, timeout, algorithm, [openid.customFetch]: cappedFetch },
      );
      configuration.timeout = timeout;
      configuration[openid.customFetch] = cappedFetch;
      const metadata = configuration.serverMetadata();
      for (const name of ['authorization_endpoint', 'token_endpoint'] as const) {
        const url = metadata[name];
        if (typeof url !== 'string')
          throw new AuthorizationServerUnavailable(`${issuer.href}: its metadata has no ${name}`);
        secure(url, `${issuer.href} ${name}`);
      }
      const methods = metadata.code_challenge_methods_supported;
      if (Array.isArray(methods) && !methods.includes('S256'))
        throw new AuthorizationServerUnavailable(`${issuer.href} does not support PKCE with S256`);
      return configuration;
    } catch (error) {
      if (error instanceof AuthorizationServerUnavailable) throw error;
      lastError = error;
    }
  }
  throw new AuthorizationServerUnavailable(
    `discovery of the authorization server ${issuer.href} (backend ${backend}) failed`,
    { cause: lastError },
  );
}

/** The token response as a stored token set; `previous` supplies what a refresh answer may omit. */
function tokensOf(
  response: openid.TokenEndpointResponse,
  config: DelegationConfig,
  now: number,
  previous?: DelegatedTokens,
): DelegatedTokens {
  if (typeof response.access_token !== 'string' || response.access_token === '')
    throw new AuthorizationServerUnavailable('the token response has no access_token');
  const type = String(response.token_type ?? '').toLowerCase();
  if (type !== 'bearer')
    throw new AuthorizationServerUnavailable(
      `the token response has token_type ${type || '(none)'}; only Bearer is supported`,
    );
  const scopes =
    typeof response.scope === 'string'
      ? response.scope.split(' ').filter((s) => s !== '')
      : (previous?.scopes ?? [...config.scopes]);
  const refreshToken = response.refresh_token ?? previous?.refreshToken;
  return {
    accessToken: response.access_token,
    tokenType: 'Bearer',
    scopes,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(typeof response.expires_in === 'number'
      ? { expiresAt: now + response.expires_in * 1000 }
      : {}),
  };
}

/** An OAuth error answer is the server's refusal; anything else (network, timeout, garbage) is not. */
function classify(error: unknown, what: string): Error {
  if (error instanceof GrantRefused || error instanceof AuthorizationServerUnavailable)
    return error;
  if (error instanceof openid.ResponseBodyError)
    return new GrantRefused(error.error, `${what} refused: ${error.error}`);
  if (error instanceof openid.AuthorizationResponseError)
    return new GrantRefused(error.error, `${what} refused: ${error.error}`);
  return new AuthorizationServerUnavailable(`${what} failed`, { cause: error });
}

export function upstreamAuthorizationServer(
  backend: string,
  config: DelegationConfig,
  clock: () => number = Date.now,
): UpstreamAuthorizationServer {
  let configuration: Promise<openid.Configuration> | undefined;
  const server = () => {
    configuration ??= discover(backend, config).catch((error: unknown) => {
      configuration = undefined; // try again next time
      throw error;
    });
    return configuration;
  };
  const resource: Record<string, string> =
    config.resource === undefined ? {} : { resource: config.resource };

  return {
    async start(redirectUri) {
      const configured = await server();
      const state = openid.randomState();
      const codeVerifier = openid.randomPKCECodeVerifier();
      // A nonce only where an ID token comes back to carry it (OpenID scope).
      const nonce = config.scopes.includes('openid') ? openid.randomNonce() : undefined;
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        ...(config.scopes.length === 0 ? {} : { scope: config.scopes.join(' ') }),
        state,
        ...(nonce === undefined ? {} : { nonce }),
        code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...resource,
      };
      const url = openid.buildAuthorizationUrl(configured, parameters);
      return { url: url.href, state, nonce, codeVerifier };
    },

    async finish({ redirectUri, parameters, state, nonce, codeVerifier }) {
      const configured = await server();
      const answer = new URL(redirectUri);
      answer.search = parameters.toString();
      try {
        const response = await openid.authorizationCodeGrant(
          configured,
          answer,
          {
            expectedState: state,
            ...(nonce === undefined ? {} : { expectedNonce: nonce }),
            pkceCodeVerifier: codeVerifier,
            idTokenExpected: nonce !== undefined,
          },
          { redirect_uri: redirectUri, ...resource },
        );
        return tokensOf(response, config, clock());
      } catch (error) {
        throw classify(error, `the code exchange at ${config.issuer}`);
      }
    },

    async refresh(refreshToken, previous) {
      const configured = await server();
      try {
        const response = await openid.refreshTokenGrant(configured, refreshToken, {
          ...resource,
        });
        return tokensOf(response, config, clock(), previous);
      } catch (error) {
        throw classify(error, `the refresh at ${config.issuer}`);
      }
    },
  };
}
