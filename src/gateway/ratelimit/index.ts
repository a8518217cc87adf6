// Public surface of the rate-limiting module.
export { createRateLimiter } from './limiter.js';
export type { RateLimiter, RateLimiterDeps, RateLimitResult } from './limiter.js';
export { parseRateLimitConfig, RateLimitConfigSchema } from './config.js';
export type { RateLimitConfig } from './config.js';
export type { RateLimitContext, Quota } from './policy.js';
export { rateLimitResponse, RATE_LIMITED_CODE, RATE_LIMIT_UNAVAILABLE_CODE } from './headers.js';
export type { JsonRpcErrorObject, RateLimitErrorData, RateLimitResponse } from './headers.js';
export { resolveClientIp, normalizeIp, TrustedProxies } from './client-ip.js';
export { CountingMetrics, noopMetrics } from './metrics.js';
export type { RateLimitMetrics, DecisionOutcome, DecisionSource } from './metrics.js';
export type { BreakerState } from './circuit-breaker.js';
export { MemoryStore } from './memory-store.js';
export { RedisStore } from './redis-store.js';
export { ResilientStore } from './resilient-store.js';
export type * from './types.js';
export { createPromRateLimitMetrics } from './prom-metrics.js';
