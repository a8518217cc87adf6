// Configuration of the rate limiter (`gateway.rateLimit`): schema with defaults, and the one check a
// schema cannot express (trusted proxies parse as addresses or CIDR ranges).
import { Type, type Static } from '@sinclair/typebox';
import { TrustedProxies } from '../shared/ip-address.js';
import { ConfigError } from './errors.js';
import type { DeepReadonly } from './deep-readonly.js';
import { validateAgainstSchema } from './validate.js';

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

/** The checked slice, read-only as every part of the frozen configuration. */
export type RateLimitConfig = DeepReadonly<Static<typeof RateLimitConfigSchema>>;

/** What the schema cannot check; run by loadConfig on the whole configuration and by parseRateLimitConfig. */
export function checkRateLimitConfig(
  config: Readonly<Pick<RateLimitConfig, 'trustedProxies'>>,
): void {
  try {
    new TrustedProxies(config.trustedProxies);
  } catch (err) {
    throw new ConfigError(`gateway.rateLimit.trustedProxies: ${(err as Error).message}`);
  }
}

/**
 * A `gateway.rateLimit` slice on its own (tests, benchmarks): the same validator and defaults as the
 * whole configuration. Throws a ConfigError naming the key and the problem; the input is not modified.
 */
export function parseRateLimitConfig(input: unknown = {}): RateLimitConfig {
  const config = validateAgainstSchema(RateLimitConfigSchema, input ?? {}, 'gateway.rateLimit');
  checkRateLimitConfig(config);
  return config;
}
