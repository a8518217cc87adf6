// Configuration of the rate limiter (merged into the gateway configuration as `gateway.rateLimit`).
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { TrustedProxies } from './client-ip.js';

const Quota = (limit: number, description: string) =>
  Type.Object(
    {
      limit: Type.Integer({ minimum: 1, maximum: 1_000_000, default: limit }),
      windowSeconds: Type.Integer({ minimum: 1, maximum: 86_400, default: 60 }),
    },
    { additionalProperties: false, default: {}, description },
  );

export const RateLimitConfigSchema = Type.Object(
  {
    store: Type.Optional(
      Type.Union([Type.Literal('memory'), Type.Literal('redis')], {
        description:
          'Where counters live: this process, or Redis shared by all replicas. Default: redis when a Redis URL is configured (gateway.redis.url / REDIS_URL), else memory.',
      }),
    ),
    user: Quota(500, 'Authenticated callers, keyed by user id (JWT subject).'),
    anonymous: Quota(50, 'Anonymous callers, keyed by client IP (IPv6: by prefix).'),
    subscriptionDefault: Quota(100, 'Per subscription key unless the subscription sets its own.'),
    perTool: Type.Record(
      Type.String({ minLength: 1 }),
      Type.Object(
        {
          limit: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
          windowSeconds: Type.Integer({ minimum: 1, maximum: 86_400, default: 60 }),
        },
        { additionalProperties: false },
      ),
      { default: {}, description: 'Per tool and subscription limits, by tool name.' },
    ),
    ipv6PrefixLength: Type.Integer({ minimum: 32, maximum: 128, default: 64 }),
    memory: Type.Object(
      {
        maxKeys: Type.Integer({ minimum: 1000, maximum: 10_000_000, default: 100_000 }),
        sweepIntervalSeconds: Type.Number({ minimum: 1, maximum: 3600, default: 10 }),
      },
      { additionalProperties: false, default: {} },
    ),
    redis: Type.Object(
      {
        url: Type.Optional(Type.String({ minLength: 1 })),
        keyPrefix: Type.String({ minLength: 1, maxLength: 100, default: 'toolgate:rl:' }),
        commandTimeoutMs: Type.Integer({ minimum: 5, maximum: 10_000, default: 250 }),
      },
      { additionalProperties: false, default: {} },
    ),
    onStoreFailure: Type.Union(
      [Type.Literal('fallback'), Type.Literal('closed'), Type.Literal('open')],
      { default: 'fallback' },
    ),
    breaker: Type.Object(
      {
        failureThreshold: Type.Integer({ minimum: 1, maximum: 1000, default: 3 }),
        cooldownMs: Type.Integer({ minimum: 50, maximum: 600_000, default: 1000 }),
      },
      { additionalProperties: false, default: {} },
    ),
    trustedProxies: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    forwardedHeader: Type.Union([Type.Literal('x-forwarded-for'), Type.Literal('forwarded')], {
      default: 'x-forwarded-for',
    }),
  },
  { additionalProperties: false, default: {} },
);

export type RateLimitConfig = Static<typeof RateLimitConfigSchema>;

/**
 * Applies defaults to a (partial) configuration and validates it. Throws an Error naming the key
 * and the problem. The input is not modified.
 */
export function parseRateLimitConfig(input: unknown = {}): RateLimitConfig {
  const value = Value.Default(RateLimitConfigSchema, Value.Clone(input ?? {}));
  // TypeBox does not apply defaults inside Record values: default each tool's window here.
  const perTool: unknown = (value as { perTool?: unknown }).perTool;
  if (perTool && typeof perTool === 'object') {
    for (const quota of Object.values(perTool)) {
      if (quota && typeof quota === 'object' && !('windowSeconds' in quota)) {
        (quota as Record<string, unknown>)['windowSeconds'] = 60;
      }
    }
  }
  const first = Value.Errors(RateLimitConfigSchema, value).First();
  if (first) {
    throw new Error(`gateway.rateLimit${first.path.replaceAll('/', '.')}: ${first.message}`);
  }
  const config = value as RateLimitConfig;
  try {
    new TrustedProxies(config.trustedProxies);
  } catch (err) {
    throw new Error(`gateway.rateLimit.trustedProxies: ${(err as Error).message}`);
  }
  return config;
}
