// Configuration of the gateway's authentication: subscription keys, user JWTs, the development identity
// provider. Embedded as `gateway.auth` (see docs/configuration.md).
import { Type } from '@sinclair/typebox';
import { JwtConfigSchema } from './gateway-jwt.js';

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
    devIdentityProvider: Type.Object(
      {
        enabled: Type.Optional(
          Type.Boolean({
            description:
              'serve a local OpenID provider at /dev-idp (default: on in development only)',
          }),
        ),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);
