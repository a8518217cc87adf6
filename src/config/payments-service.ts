// Configuration of the payment service's own behaviour: how it trusts the gateway's identity, how long
// idempotency keys live, how long a repeated order counts as a possible duplicate, who may call the
// operator endpoint (docs/configuration.md).
import { Type } from '@sinclair/typebox';

const Secret = Type.String({ minLength: 16, maxLength: 512 });

/** Spread into PaymentsSchema: payments.identity, payments.idempotency, payments.operator, payments.engine. */
export const PaymentsServiceProperties = {
  identity: Type.Object(
    {
      mechanism: Type.Union([Type.Literal('shared-secret'), Type.Literal('assertion')], {
        default: 'shared-secret',
        description: 'how the gateway vouches for the user identity it forwards',
      }),
      sharedSecret: Type.Optional(
        Type.Union([Secret, Type.Array(Secret, { minItems: 1, maxItems: 4 })], {
          description:
            'secret(s) the gateway sends in X-Toolgate-Gateway-Key (several during rotation); without one, every identity header is refused',
        }),
      ),
      assertion: Type.Object(
        {
          issuer: Type.Optional(
            Type.String({ pattern: '^https?://', description: "the gateway's public URL" }),
          ),
          jwksUrl: Type.Optional(
            Type.String({
              pattern: '^https?://',
              description: "the gateway's JWKS (…/.well-known/jwks.json)",
            }),
          ),
          audience: Type.Optional(
            Type.String({
              minLength: 1,
              description:
                'this service as named in assertions (default: its origin, publicUrl or http://host:port)',
            }),
          ),
          maxAgeSeconds: Type.Integer({ minimum: 5, maximum: 600, default: 120 }),
        },
        { additionalProperties: false, default: {} },
      ),
    },
    { additionalProperties: false, default: {} },
  ),
  idempotency: Type.Object(
    {
      ttlSeconds: Type.Integer({ minimum: 1, maximum: 30 * 86400, default: 86400 }),
      purgeIntervalSeconds: Type.Integer({ minimum: 1, maximum: 86400, default: 600 }),
    },
    { additionalProperties: false, default: {} },
  ),
  duplicates: Type.Object(
    {
      windowSeconds: Type.Integer({
        minimum: 0,
        maximum: 7 * 86400,
        default: 600,
        description:
          'the same order (payer, payee, amount, date, reference) again within this window and without an idempotency key is refused with 409 POSSIBLE_DUPLICATE unless confirmed; 0 turns the check off',
      }),
    },
    { additionalProperties: false, default: {} },
  ),
  operator: Type.Object(
    {
      tokens: Type.Array(Secret, {
        default: [],
        maxItems: 16,
        description: 'bearer tokens accepted by POST /internal/payments/{id}/status',
      }),
    },
    { additionalProperties: false, default: {} },
  ),
  engine: Type.Object(
    {
      enabled: Type.Boolean({
        default: true,
        description:
          'run the execution engine inside the payment service (payments move on their execution date)',
      }),
      pollIntervalMs: Type.Integer({
        minimum: 50,
        maximum: 3_600_000,
        default: 5000,
        description: 'how often the engine looks for due transitions',
      }),
      batchSize: Type.Integer({
        minimum: 1,
        maximum: 10_000,
        default: 200,
        description: 'transitions one replica claims per round (each in its own transaction)',
      }),
    },
    { additionalProperties: false, default: {} },
  ),
};
