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
      resources: [{ close: () => redis?.quit().then(() => undefined) }, db],
    });
  } catch (error) {
    redis?.disconnect();
    await db.close();
    throw error;
  }
}
