// The rate limiter the gateway calls: policy → store → a decision (what was decided and why). The gatekeeper
// renders it (src/gateway/gatekeeper/refusals.ts); nothing here knows HTTP or JSON-RPC.
import type { RedisClient } from '../../shared/redis.js';
import { TrustedProxies, resolveClientIp, type HeaderBag } from './client-ip.js';
import { monotonicClock, silentLogger } from './clock.js';
import type { RateLimitConfig } from '../../config/gateway-ratelimit.js';
import { MemoryStore } from './memory-store.js';
import { noopMetrics, type RateLimitMetrics } from './metrics.js';
import { outcomeOf } from './outcome.js';
import { checksFor, type RateLimitContext } from './policy.js';
import { RedisStore } from './redis-store.js';
import { ResilientStore } from './resilient-store.js';
import type { Clock, LimitDecision, RateLimitLogger, RateLimitStore } from './types.js';

export interface RateLimiterDeps {
  readonly logger?: RateLimitLogger;
  readonly metrics?: RateLimitMetrics;
  readonly clock?: Clock;
  /** Shared Redis client (store 'redis'); otherwise `config.redis.url` is used. */
  readonly redis?: RedisClient;
  /** Replaces the configured store (tests). */
  readonly store?: RateLimitStore;
}

export interface RateLimiter {
  /** Decides one request against every quota that applies. Never throws for store failures. */
  check(ctx: RateLimitContext): Promise<LimitDecision>;
  /**
   * The store the decisions come from (Redis when configured, shared by every worker and replica;
   * memory otherwise), for the other counters of the request path: the failed-key lockout.
   */
  readonly store: RateLimitStore;
  /** The client IP of a request per the trusted-proxy configuration. */
  clientIp(socketAddress: string, headers: HeaderBag): string;
  /**
   * Waits (up to `timeoutMs`) for the Redis connection at startup; resolves false instead of
   * throwing when Redis is not reachable (decisions then follow `onStoreFailure`). Memory: true.
   */
  ready(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

interface BuiltStore {
  readonly store: RateLimitStore;
  readonly redis?: RedisStore;
}

function buildStore(config: RateLimitConfig, deps: RateLimiterDeps): BuiltStore {
  const metrics = deps.metrics ?? noopMetrics;
  const memory = () =>
    new MemoryStore({
      maxKeys: config.memory.maxKeys,
      sweepIntervalMs: config.memory.sweepIntervalSeconds * 1000,
      clock: deps.clock ?? monotonicClock,
      onEvict: (live) => metrics.keyEvicted(live),
    });
  if (effectiveStore(config, deps) === 'memory') return { store: memory() };
  if (!deps.redis && !config.redis.url) {
    throw new Error('gateway.rateLimit.store is "redis" but no Redis URL or client is configured');
  }
  const primary = new RedisStore({
    ...(deps.redis ? { client: deps.redis } : { url: config.redis.url }),
    keyPrefix: config.redis.keyPrefix,
    commandTimeoutMs: config.redis.commandTimeoutMs,
  });
  const store = new ResilientStore({
    primary,
    ...(config.onStoreFailure === 'fallback' ? { fallback: memory() } : {}),
    policy: config.onStoreFailure,
    failureThreshold: config.breaker.failureThreshold,
    cooldownMs: config.breaker.cooldownMs,
    clock: deps.clock ?? monotonicClock,
    logger: deps.logger ?? silentLogger,
    metrics,
  });
  return { store, redis: primary };
}

export function createRateLimiter(
  config: RateLimitConfig,
  deps: RateLimiterDeps = {},
): RateLimiter {
  const built: BuiltStore = deps.store ? { store: deps.store } : buildStore(config, deps);
  const { store } = built;
  const logger = deps.logger ?? silentLogger;
  const metrics = deps.metrics ?? noopMetrics;
  const trusted = new TrustedProxies(config.trustedProxies);
  const source = effectiveStore(config, deps);
  return {
    store,
    async check(ctx) {
      const decision = await store.consume(checksFor(ctx, config));
      metrics.decision(outcomeOf(decision), decision.degraded ?? source);
      return decision;
    },
    clientIp(socketAddress, headers) {
      return resolveClientIp(socketAddress, headers, trusted, config.forwardedHeader);
    },
    async ready(timeoutMs = 5000) {
      if (!built.redis) return true;
      try {
        await built.redis.ready(timeoutMs);
        return true;
      } catch (err) {
        logger.warn(
          {
            error: err instanceof Error ? err.message : String(err),
            policy: config.onStoreFailure,
          },
          'rate-limit Redis not reachable at startup',
        );
        return false;
      }
    },
    close: () => store.close(),
  };
}

/** An explicit `store` wins; otherwise Redis when a client or URL is available, else memory. */
export function effectiveStore(config: RateLimitConfig, deps: RateLimiterDeps): 'memory' | 'redis' {
  return config.store ?? (deps.redis || config.redis.url ? 'redis' : 'memory');
}
