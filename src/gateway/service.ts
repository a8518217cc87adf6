// Opens the gateway's stores (migrated), builds its app and returns it as a Service ready to listen.
import type { FrozenConfig } from '../config/schema.js';
import type { Logger } from '../shared/log/logger.js';
import type { Database } from '../shared/db/types.js';
import { connectRedis, type Redis } from '../shared/redis.js';
import { assembleService, type Service } from '../shared/service.js';
import { openGatewayDatabase } from './storage/database.js';
import { createGatewayPipeline, type GatewayPipeline } from './pipeline.js';
import { buildGatewayApp, type GatewayHooks } from './app.js';

/** Builds the pipeline hooks once the gateway's stores are open (auth and rate limits need them). */
export type GatewayHooksFactory = (deps: {
  readonly db: Database;
  readonly redis?: Redis | undefined;
}) => GatewayHooks | Promise<GatewayHooks>;

/**
 * `hooks`: the authentication / guard / identity-forwarding seams. Default: the configured pipeline
 * (subscription keys, user JWTs, quotas, security classes, identity forwarding — see pipeline.ts).
 */
export async function openGatewayService(
  config: FrozenConfig,
  logger: Logger,
  hooks?: GatewayHooks | GatewayHooksFactory,
): Promise<Service> {
  const log = logger.child({ service: 'gateway' });
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  let redis: Redis | undefined;
  try {
    const redisUrl = config.gateway.redis.url;
    if (redisUrl !== undefined)
      redis = await connectRedis({ ...config.gateway.redis, url: redisUrl });
    let pipeline: GatewayPipeline | undefined;
    const resolved =
      hooks === undefined
        ? (pipeline = await createGatewayPipeline(config, log, { db }))
        : typeof hooks === 'function'
          ? await hooks({ db, redis })
          : hooks;
    const app = await buildGatewayApp({ config, logger: log, db, redis, hooks: resolved });
    return assembleService({
      name: 'gateway',
      app,
      host: config.gateway.host,
      port: config.gateway.port,
      resources: [
        { close: () => pipeline?.close() },
        { close: () => redis?.quit().then(() => undefined) },
        db,
      ],
    });
  } catch (error) {
    redis?.disconnect();
    await db.close();
    throw error;
  }
}
