// The one Redis client factory (ioredis) of every Redis user: one server, Sentinel or Cluster from the URL
// (src/shared/redis-url.ts), failing fast instead of queueing, passwords masked in every error.
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { StoreUnavailableError } from './db/types.js';
import { maskRedisUrl, parseRedisUrl } from './redis-url.js';

export type { Redis, Cluster } from 'ioredis';
export { maskRedisUrl, parseRedisUrl, RedisUrlError } from './redis-url.js';

/** A connection to one server, to the primary of a Sentinel set, or to a cluster. */
export type RedisClient = Redis | Cluster;

export interface RedisClientOptions {
  /** Per-command timeout in ms: a slower answer rejects the command (the caller's store failure). */
  readonly commandTimeoutMs: number;
  /** Timeout of one connection attempt in ms (default max(200, 4 × commandTimeoutMs)). */
  readonly connectTimeoutMs?: number;
  /** Connect on `connect()` instead of at once. */
  readonly lazyConnect?: boolean;
}

/** Background reconnection delay (ms) after the n-th failed attempt: never gives up, at most 1 s apart. */
const reconnectDelay = (times: number): number => Math.min(times * 100, 1000);

/**
 * Client options for failing fast: no offline queue (a command issued while disconnected fails at
 * once), no per-request retries, no resending after a reconnect, a short command timeout, and
 * reconnection in the background.
 */
export function fastFailRedisOptions(
  commandTimeoutMs: number,
  connectTimeoutMs = Math.max(200, commandTimeoutMs * 4),
): RedisOptions {
  return {
    commandTimeout: commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: connectTimeoutMs,
    retryStrategy: reconnectDelay,
  };
}

/**
 * Cluster redirections: MOVED and ASK are followed at once; TRYAGAIN (a multi-key command during a slot
 * migration, which Redis refuses before running it) is retried every 10 ms. After 16 redirections the
 * command fails, which the caller treats as a store failure.
 */
export const CLUSTER_REDIRECTIONS = { maxRedirections: 16, retryDelayOnTryAgain: 10 } as const;

/** A client for `url` (any form of src/shared/redis-url.ts). Throws RedisUrlError for a bad URL. */
export function createRedisClient(url: string, options: RedisClientOptions): RedisClient {
  const target = parseRedisUrl(url);
  const base = fastFailRedisOptions(options.commandTimeoutMs, options.connectTimeoutMs);
  const lazy = options.lazyConnect ? { lazyConnect: true } : {};
  let client: RedisClient;
  switch (target.kind) {
    case 'standalone':
      client = new Redis(target.url, { ...base, ...lazy });
      break;
    case 'sentinel':
      client = new Redis({
        ...base,
        ...lazy,
        sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
        name: target.masterName,
        db: target.db,
        ...(target.username ? { username: target.username } : {}),
        ...(target.password ? { password: target.password } : {}),
        ...(target.sentinelUsername ? { sentinelUsername: target.sentinelUsername } : {}),
        ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
        sentinelCommandTimeout: base.connectTimeout ?? 1000,
        sentinelRetryStrategy: reconnectDelay,
        // Subscribes to the sentinels' +switch-master so a failover moves the client at once.
        failoverDetector: true,
      });
      break;
    case 'cluster': {
      const { retryStrategy: _r, enableOfflineQueue: _q, ...nodeOptions } = base;
      const clusterOptions: ClusterOptions = {
        ...lazy,
        enableOfflineQueue: false,
        clusterRetryStrategy: reconnectDelay,
        slotsRefreshTimeout: base.connectTimeout ?? 1000,
        ...CLUSTER_REDIRECTIONS,
        redisOptions: {
          ...nodeOptions,
          ...(target.username ? { username: target.username } : {}),
          ...(target.password ? { password: target.password } : {}),
        },
      };
      client = new Cluster(
        target.nodes.map(({ host, port }) => ({ host, port })),
        clusterOptions,
      );
      break;
    }
  }
  return client;
}

/**
 * Resolves once the client is connected (commands issued before fail at once: there is no offline
 * queue). Rejects after `timeoutMs`.
 */
export function whenRedisReady(client: RedisClient, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      client.off('ready', onReady);
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    client.once('ready', onReady);
  });
}

/**
 * The key prefix with a Redis Cluster hash tag: keys that one script uses together must share a slot,
 * so every key of a store carries the same tag. A prefix that already holds a non-empty `{…}` tag is
 * kept as it is; otherwise the whole prefix becomes the tag (`toolgate:rl:` → `{toolgate:rl:}`).
 */
export function hashTaggedPrefix(prefix: string): string {
  const open = prefix.indexOf('{');
  const close = open === -1 ? -1 : prefix.indexOf('}', open + 1);
  return open !== -1 && close > open + 1 ? prefix : `{${prefix}}`;
}

/** Connects and verifies with PING; rejects with a StoreUnavailableError naming the (masked) target. */
export async function connectRedis(config: {
  readonly url: string;
  readonly connectTimeoutMs: number;
  readonly commandTimeoutMs: number;
}): Promise<RedisClient> {
  const target = maskRedisUrl(config.url);
  let client: RedisClient;
  try {
    client = createRedisClient(config.url, { ...config, lazyConnect: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`cannot use the Redis URL ${target}: ${reason}`);
  }
  client.on('error', () => undefined);
  try {
    // connect() rejects when the first attempt fails; a cluster or a Sentinel set that keeps retrying is
    // bounded by the timer.
    await Promise.race([client.connect(), whenRedisReady(client, config.connectTimeoutMs)]);
    await client.ping();
    return client;
  } catch (error) {
    client.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`cannot connect to Redis at ${target}: ${reason}`);
  }
}
