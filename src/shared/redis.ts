// Redis connection helper (ioredis): fast failure instead of unbounded queues, password masked in errors.
import { Redis } from 'ioredis';
import type { RedisConfig } from '../config/schema.js';
import { maskUrlPassword } from './log/mask.js';
import { StoreUnavailableError } from './db/types.js';

export type { Redis } from 'ioredis';

/** Connects and verifies with PING; rejects with a StoreUnavailableError naming the (masked) target. */
export async function connectRedis(
  config: Readonly<RedisConfig> & { url: string },
): Promise<Redis> {
  const target = maskUrlPassword(config.url);
  const client = new Redis(config.url, {
    lazyConnect: true,
    connectTimeout: config.connectTimeoutMs,
    commandTimeout: config.commandTimeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2000),
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return client;
  } catch (error) {
    client.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`cannot connect to Redis at ${target}: ${reason}`);
  }
}
