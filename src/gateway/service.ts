// Opens the gateway's stores (migrated), builds the gateway on them and returns it as a Service ready to
// listen. Closing the service closes the gateway first, then the stores.
import type { FrozenConfig } from '../config/schema.js';
import type { Logger } from '../shared/log/logger.js';
import { connectRedis, type RedisClient } from '../shared/redis.js';
import { assembleService, type Service } from '../shared/service.js';
import { openGatewayDatabase } from './database.js';
import { createGateway } from './create-gateway.js';

export async function openGatewayService(config: FrozenConfig, logger: Logger): Promise<Service> {
  const log = logger.child({ service: 'gateway' });
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  let redis: RedisClient | undefined;
  try {
    const redisUrl = config.gateway.redis.url;
    if (redisUrl !== undefined)
      redis = await connectRedis({ ...config.gateway.redis, url: redisUrl });
    const app = await createGateway({ config, logger: log, stores: { db, redis } });
    return assembleService({
      name: 'gateway',
      app,
      host: config.gateway.host,
      port: config.gateway.port,
      resources: [{ close: () => closeRedis(redis) }, db],
    });
  } catch (error) {
    redis?.disconnect();
    await db.close();
    throw error;
  }
}

/**
 * QUIT, then disconnect: with a Sentinel URL, ioredis's failover detector keeps its own connections to the
 * sentinels, which only disconnect() ends (QUIT alone left the process running after "stopped").
 */
async function closeRedis(redis: RedisClient | undefined): Promise<void> {
  if (!redis) return;
  try {
    await redis.quit();
  } finally {
    redis.disconnect();
  }
}
