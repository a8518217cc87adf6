// Redis URLs of the configuration, checked once at startup (the forms: src/shared/redis-url.ts). A bad URL
// stops startup with its key named and its passwords masked.
import { maskRedisUrl, parseRedisUrl } from '../shared/redis-url.js';
import { ConfigError } from './errors.js';

/** Throws a ConfigError naming `key` when `url` is set and is not an accepted Redis URL. */
export function checkRedisUrl(key: string, url: string | undefined): void {
  if (url === undefined) return;
  try {
    parseRedisUrl(url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`${key}: ${maskRedisUrl(url).slice(0, 200)} is invalid: ${reason}`);
  }
}

/** Every Redis URL of the gateway: its own (`gateway.redis.url`, REDIS_URL) and the rate limiter's. */
export function checkRedisConfig(gateway: {
  readonly redis: { readonly url?: string | undefined };
  readonly rateLimit: { readonly redis: { readonly url?: string | undefined } };
}): void {
  checkRedisUrl('gateway.redis.url', gateway.redis.url);
  checkRedisUrl('gateway.rateLimit.redis.url', gateway.rateLimit.redis.url);
}
