// Configuration of the gateway's authentication: subscription keys, user JWTs, the development identity
// provider. Embedded as `gateway.auth` (see docs/configuration.md).
import { Type, type Static } from '@sinclair/typebox';
import { ConfigError } from './errors.js';
import { JwtConfigSchema } from './gateway-jwt.js';

export const DevUserSchema = Type.Object(
  {
    sub: Type.String({ minLength: 1, maxLength: 255 }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 255 })),
    /** Further claims put into the user's tokens (e.g. roles, tenant). */
    claims: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type DevUser = Static<typeof DevUserSchema>;

/**
 * The development server's RFC 8693 token exchange (issue 28): the confidential clients allowed to use the
 * grant — the gateway itself, for backends in identity mode token-exchange — and the audiences each may
 * ask tokens for.
 */
export const DevTokenExchangeSchema = Type.Object(
  {
    clients: Type.Array(
      Type.Object(
        {
          clientId: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' }),
          clientSecret: Type.String({
            minLength: 16,
            description: 'client_secret_basic; may use ${env:NAME}',
          }),
          audiences: Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), {
            minItems: 1,
            maxItems: 64,
            uniqueItems: true,
            description:
              'the audience or resource values (RFC 8693) this client may ask exchanged tokens for: the upstreams',
          }),
        },
        { additionalProperties: false },
      ),
      { default: [], maxItems: 16 },
    ),
  },
  { additionalProperties: false, default: {} },
);

export const GatewayAuthSchema = Type.Object(
  {
    subscriptionKeys: Type.Object(
      {
        allowQueryParameter: Type.Boolean({
          default: false,
          description:
            'also accept the key as ?subscription-key= (off: URLs end up in logs and histories)',
        }),
        pepper: Type.Optional(
          Type.String({
            minLength: 16,
            description: 'server-side secret mixed into key hashes (HMAC-SHA-256)',
          }),
        ),
        cacheTtlMs: Type.Integer({ minimum: 0, maximum: 300000, default: 10000 }),
        failedAttempts: Type.Object(
          {
            limit: Type.Integer({ minimum: 1, maximum: 100000, default: 20 }),
            windowSeconds: Type.Integer({ minimum: 1, maximum: 86400, default: 60 }),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    jwt: Type.Optional(JwtConfigSchema),
    settingsRefreshMs: Type.Integer({
      minimum: 100,
      maximum: 300000,
      default: 2000,
      description:
        'how often each replica checks the stored identity-provider settings (admin API) for a new version',
    }),
    assertionKey: Type.Optional(
      Type.String({
        minLength: 20,
        description:
          'private JWK (JSON text, EC P-256 or Ed25519) signing identity assertions; all replicas need the same one. Default: generated once into <dataDir>/gateway-assertion-key.json',
      }),
    ),
    scopes: Type.Array(Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' }), {
      uniqueItems: true,
      maxItems: 32,
      default: ['openid', 'profile', 'offline_access'],
      description:
        'the scopes every sign-in asks for: named in WWW-Authenticate challenges and in the protected-resource metadata (scopes_supported, with the tool scopes)',
    }),
    devIdentityProvider: Type.Object(
      {
        enabled: Type.Optional(
          Type.Boolean({
            description:
              'serve a local OpenID provider and authorization server at /dev-idp (default: on in development only)',
          }),
        ),
        users: Type.Array(DevUserSchema, {
          minItems: 1,
          maxItems: 100,
          default: [
            { sub: 'alice', name: 'Alice Example', email: 'alice@example.com' },
            // The demo's second person (issue 25): approves other users' payments above 10,000 EUR.
            {
              sub: 'bob',
              name: 'Bob Example',
              email: 'bob@example.com',
              claims: { roles: ['payments-approver'] },
            },
          ],
          description:
            'the users the development sign-in page offers (alice; bob, holding the role payments-approver)',
        }),
        autoLogin: Type.Optional(
          Type.String({
            minLength: 1,
            description:
              'development only: sign this user (a users[].sub) in and grant consent without showing the page, for automated clients',
          }),
        ),
        accessTokenTtlSeconds: Type.Integer({ minimum: 5, maximum: 86400, default: 3600 }),
        refreshTokenTtlSeconds: Type.Integer({ minimum: 60, maximum: 7776000, default: 1209600 }),
        tokenExchange: DevTokenExchangeSchema,
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

/**
 * What the schema cannot express: the development provider and its autoLogin exist in development only
 * (a password-less sign-in page whose users may hold the admin role, or a switch that signs anybody in
 * without a page, must never reach a shared environment), autoLogin names a configured user, and user
 * subjects are unique.
 */
export function checkDevIdentityProviderConfig(
  dev: {
    readonly enabled?: boolean | undefined;
    readonly users: readonly { readonly sub: string }[];
    readonly autoLogin?: string | undefined;
    readonly tokenExchange?: { readonly clients: readonly { readonly clientId: string }[] };
  },
  environment: string,
): void {
  const key = 'gateway.auth.devIdentityProvider';
  if (dev.enabled === true && environment !== 'development')
    throw new ConfigError(
      `${key}.enabled: allowed only when environment is development (it is ${environment}); its sign-in page asks no password`,
    );
  const subjects = new Set<string>();
  for (const [index, user] of dev.users.entries()) {
    if (subjects.has(user.sub))
      throw new ConfigError(`${key}.users[${index}].sub: "${user.sub}" is listed twice`);
    subjects.add(user.sub);
  }
  const clientIds = new Set<string>();
  for (const [index, client] of (dev.tokenExchange?.clients ?? []).entries()) {
    if (clientIds.has(client.clientId) || client.clientId === 'toolgate-portal')
      throw new ConfigError(
        `${key}.tokenExchange.clients[${index}].clientId: "${client.clientId}" is ${clientIds.has(client.clientId) ? 'listed twice' : "the portal's client"}`,
      );
    clientIds.add(client.clientId);
  }
  if (dev.autoLogin === undefined) return;
  if (environment !== 'development')
    throw new ConfigError(
      `${key}.autoLogin: allowed only when environment is development (it is ${environment})`,
    );
  if (!subjects.has(dev.autoLogin))
    throw new ConfigError(
      `${key}.autoLogin: "${dev.autoLogin}" is not the sub of any ${key}.users entry`,
    );
}
