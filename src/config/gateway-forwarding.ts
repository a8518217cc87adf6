// How a backend learns who the user is: `gateway.backends[].identity` (docs/configuration.md).
import { Type, type Static } from '@sinclair/typebox';
import { DelegationSchema, TokenExchangeSchema } from './gateway-federation.js';

const HeaderName = Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$" });

export const IdentityForwardingSchema = Type.Object(
  {
    mode: Type.Union(
      [
        Type.Literal('headers'),
        Type.Literal('assertion'),
        Type.Literal('passthrough'),
        Type.Literal('none'),
        Type.Literal('token-exchange'),
        Type.Literal('delegation'),
      ],
      {
        default: 'headers',
        description:
          "headers: X-User-Id & co. plus a shared gateway key; assertion: a short-lived JWT signed by the gateway; passthrough: the caller's own Authorization header (weaker, opt-in); none: nothing about the user; token-exchange (MCP upstreams): an RFC 8693 token for the user from tokenExchange; delegation (MCP upstreams): the user's own token at the upstream's authorization server, after the user signs in there once",
      },
    ),
    tokenExchange: Type.Optional(TokenExchangeSchema),
    delegation: Type.Optional(DelegationSchema),
    sharedSecret: Type.Optional(
      Type.String({
        minLength: 16,
        description:
          'headers mode: sent as X-Toolgate-Gateway-Key so the backend can trust the identity headers',
      }),
    ),
    claims: Type.Record(Type.String({ minLength: 1, maxLength: 64 }), HeaderName, {
      default: {},
      description: 'user claims to forward, claim name → header name (e.g. email → X-User-Email)',
    }),
    audience: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'assertion mode: the backend identifier (default: the origin of its baseUrl)',
      }),
    ),
    assertionTtlSeconds: Type.Integer({ minimum: 5, maximum: 300, default: 60 }),
  },
  { additionalProperties: false, default: {} },
);

export type IdentityForwardingConfig = Static<typeof IdentityForwardingSchema>;
