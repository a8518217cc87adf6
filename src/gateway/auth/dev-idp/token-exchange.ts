// RFC 8693 token exchange at the development authorization server (issue 28): the gateway, as a configured
// confidential client (`gateway.auth.devIdentityProvider.tokenExchange.clients`), trades a user's access
// token for one addressed to an upstream MCP server. The subject token must be this server's own (its
// signing key, its issuer), unexpired, issued for the gateway (one of the gateway's resources), of a
// configured user, and — when it came from an authorization grant — that grant must not have been revoked.
// The issued token is a JWT signed like every other access token here: the same `sub`, the requested
// audience (one the client may ask for), scopes narrowed to those requested that the subject token had,
// an expiry no later than the subject token's, and the `act` claim naming the client (RFC 8693 §4.1).
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type Provider from 'oidc-provider';
import { errors, type TokenRequestContext } from 'oidc-provider';
import type { DevIdp } from './idp.js';

export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** The claim naming the authorization grant an access token came from (the revocation check). */
export const GRANT_ID_CLAIM = 'grant_id';

export interface TokenExchangeClient {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The audience / resource values this client may ask tokens for. */
  readonly audiences: readonly string[];
}

export interface TokenExchangeOptions {
  readonly issuer: string;
  readonly idp: DevIdp;
  /** The gateway's resources: a subject token must have been issued for one of them. */
  readonly subjectAudiences: readonly string[];
  /** The configured users: a subject token of anyone else is refused. */
  readonly users: ReadonlySet<string>;
  readonly clients: readonly TokenExchangeClient[];
  /** Upper bound of the issued token's lifetime (the server's access token lifetime). */
  readonly accessTokenTtlSeconds: number;
}

/** Static client metadata (oidc-provider `clients`) for the configured exchange clients. */
export function tokenExchangeClientMetadata(
  clients: readonly TokenExchangeClient[],
): Record<string, unknown>[] {
  return clients.map((c) => ({
    client_id: c.clientId,
    client_secret: c.clientSecret,
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: [TOKEN_EXCHANGE_GRANT],
    response_types: [],
    redirect_uris: [],
  }));
}

/** What extraTokenClaims adds to an exchanged token: `act`, with the subject token's own actor nested. */
const actors = new WeakMap<object, Record<string, unknown>>();

/** The `act` claim of an access token this grant issued; undefined for any other token. */
export function actClaimOf(token: object): Record<string, unknown> | undefined {
  return actors.get(token);
}

const PARAMETERS = [
  'subject_token',
  'subject_token_type',
  'requested_token_type',
  'actor_token',
  'actor_token_type',
  'audience',
  'resource',
  'scope',
];

export function registerTokenExchange(provider: Provider, options: TokenExchangeOptions): void {
  const jwks = createLocalJWKSet(options.idp.jwks());
  const policies = new Map(options.clients.map((c) => [c.clientId, new Set(c.audiences)]));
  const subjectAudiences = new Set(options.subjectAudiences);

  async function verifySubject(token: string): Promise<JWTPayload & { sub: string; exp: number }> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: options.issuer,
        algorithms: ['ES256'],
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      // jose's codes say why (expired, signature, issuer) without repeating the token.
      const code = (error as { code?: unknown }).code;
      throw invalidGrant(
        `subject_token is not a valid access token of this server (${typeof code === 'string' ? code : 'unreadable'})`,
      );
    }
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.some((aud) => aud !== undefined && subjectAudiences.has(aud)))
      throw invalidGrant('subject_token was not issued for the gateway');
    if (typeof payload.sub !== 'string' || !options.users.has(payload.sub))
      throw invalidGrant('subject_token names no configured user');
    const grantId = payload[GRANT_ID_CLAIM];
    if (grantId !== undefined) {
      const grant = typeof grantId === 'string' ? await provider.Grant.find(grantId) : undefined;
      if (grant === undefined) throw invalidGrant('subject_token has been revoked');
    }
    return payload as JWTPayload & { sub: string; exp: number };
  }

  provider.registerGrantType(
    TOKEN_EXCHANGE_GRANT,
    async (ctx: TokenRequestContext) => {
      const params = ctx.oidc.params as Record<string, unknown>;
      const client = ctx.oidc.client;
      // oidc-provider authenticated the client before this handler runs.
      if (client === undefined) throw new errors.UnauthorizedClient('no client');
      const policy = policies.get(client.clientId);
      if (policy === undefined)
        throw new errors.UnauthorizedClient('this client may not exchange tokens');
      const subjectToken = stringParam(params, 'subject_token');
      if (subjectToken === undefined)
        throw new errors.InvalidRequest('missing required parameter subject_token');
      if (params.subject_token_type !== ACCESS_TOKEN_TYPE)
        throw new errors.InvalidRequest(`subject_token_type must be ${ACCESS_TOKEN_TYPE}`);
      if (
        params.requested_token_type !== undefined &&
        params.requested_token_type !== ACCESS_TOKEN_TYPE
      )
        throw new errors.InvalidRequest(`requested_token_type must be ${ACCESS_TOKEN_TYPE}`);
      // The authenticated client is the actor; a separate actor token would name someone unverified.
      if (params.actor_token !== undefined || params.actor_token_type !== undefined)
        throw new errors.InvalidRequest('actor_token is not supported: the client is the actor');

      const audience = stringParam(params, 'audience');
      const resource = stringParam(params, 'resource');
      if (audience !== undefined && resource !== undefined && audience !== resource)
        throw new errors.InvalidTarget(
          'audience and resource name two different targets; this server issues a token for one',
        );
      const target = resource ?? audience;
      if (target === undefined)
        throw new errors.InvalidTarget('name the target with audience or resource');
      if (!policy.has(target))
        throw new errors.InvalidTarget(`this client may not ask tokens for ${target}`);

      const subject = await verifySubject(subjectToken);
      const held = new Set(typeof subject.scope === 'string' ? subject.scope.split(' ') : []);
      held.delete('');
      const requested = stringParam(params, 'scope')?.split(' ').filter(Boolean);
      const scopes =
        requested === undefined ? [...held] : requested.filter((scope) => held.has(scope));
      if (requested !== undefined && requested.length > 0 && scopes.length === 0)
        throw new errors.InvalidScope('the subject token holds none of the requested scopes');

      const now = Math.floor(Date.now() / 1000);
      const lifetime = Math.min(options.accessTokenTtlSeconds, subject.exp - now);
      if (lifetime < 1) throw invalidGrant('subject_token has expired');

      const token = new provider.AccessToken({
        accountId: subject.sub,
        client,
        gty: TOKEN_EXCHANGE_GRANT,
        scope: scopes.length === 0 ? undefined : scopes.join(' '),
        expiresIn: lifetime,
        resourceServer: {
          audience: target,
          identifier: () => target,
          scope: scopes.join(' '),
          accessTokenFormat: 'jwt',
          accessTokenTTL: lifetime,
          jwt: { sign: { alg: 'ES256' } },
        },
      });
      actors.set(token, {
        sub: client.clientId,
        ...(isObject(subject.act) ? { act: subject.act } : {}),
      });
      ctx.oidc.entity('AccessToken', token);
      const value = await token.save();
      ctx.body = {
        access_token: value,
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: 'Bearer',
        expires_in: lifetime,
        ...(scopes.length === 0 ? {} : { scope: scopes.join(' ') }),
      };
    },
    PARAMETERS,
  );
}

/** invalid_grant with the reason as error_description (oidc-provider's own keeps it out of the answer). */
function invalidGrant(description: string): Error {
  return new errors.CustomOIDCProviderError('invalid_grant', description);
}

function stringParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
