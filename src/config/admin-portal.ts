// Configuration of the portal and of its OpenID Connect sign-in, embedded in the `admin` slice as
// `admin.portal` and `admin.oidc` (see docs/configuration.md). The role of an OIDC user comes from the
// admin slice's `roleClaim` / `adminRole`, the same rule the admin API's bearer tokens follow.
import { Type, type Static } from '@sinclair/typebox';
import type { DeepReadonly } from './deep-readonly.js';

export const PortalSessionSchema = Type.Object(
  {
    idleMinutes: Type.Integer({
      minimum: 1,
      maximum: 1440,
      default: 30,
      description: 'a portal session ends after this long without a request',
    }),
    absoluteHours: Type.Integer({
      minimum: 1,
      maximum: 168,
      default: 8,
      description: 'a portal session ends this long after sign-in, whatever the activity',
    }),
  },
  { additionalProperties: false, default: {} },
);

export const AdminOidcSchema = Type.Object(
  {
    issuer: Type.String({
      pattern: '^https?://',
      description: 'issuer of the OpenID provider users sign in to the portal with (exact match)',
    }),
    discoveryUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: 'OIDC discovery document; default <issuer>/.well-known/openid-configuration',
      }),
    ),
    clientId: Type.String({ minLength: 1, maxLength: 256 }),
    clientSecret: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'client secret (client_secret_basic); absent for a public client using PKCE only',
      }),
    ),
    redirectUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description:
          'the callback registered with the provider; default <admin listener origin>/portal/auth/callback',
      }),
    ),
    scopes: Type.Array(Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,64}$' }), {
      default: ['openid', 'email', 'profile'],
      maxItems: 20,
    }),
    algorithms: Type.Array(Type.String({ pattern: '^(RS|PS|ES)(256|384|512)$|^EdDSA$' }), {
      default: ['RS256', 'ES256', 'PS256', 'EdDSA'],
      minItems: 1,
    }),
  },
  { additionalProperties: false },
);

/** Spread into the admin slice's properties. */
export const AdminPortalProperties = {
  portal: Type.Object(
    { session: PortalSessionSchema },
    { additionalProperties: false, default: {} },
  ),
  oidc: Type.Optional(AdminOidcSchema),
};

export type PortalSessionConfig = DeepReadonly<Static<typeof PortalSessionSchema>>;
export type AdminOidcConfig = DeepReadonly<Static<typeof AdminOidcSchema>>;
