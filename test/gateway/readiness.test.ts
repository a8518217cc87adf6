// /readyz follows gateway.rateLimit.onStoreFailure when Redis is down.
// Under `fallback` and `open` the gateway keeps serving without Redis, so it stays ready (200, the outage
// shown as `degraded`); under `closed` it refuses quota-bound calls, so it is not ready (503). Redis is
// "down" for real: the client points at a TCP relay with no server behind it, which closes every
// connection at once, as a stopped Redis does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config/load.js';
import { createGateway } from '../../src/gateway/create-gateway.js';
import { migrateGatewayDatabase } from '../../src/gateway/database.js';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';

async function readinessWithRedisDown(onStoreFailure: 'fallback' | 'open' | 'closed') {
  const scratch = mkdtempSync(join(tmpdir(), 'toolgate-readyz-'));
  const relay = await startTcpRelay(join(scratch, 'nobody.sock'));
  const url = `redis://127.0.0.1:${relay.port}`;
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  const db = await openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const config = loadConfig({
    env: {},
    overrides: {
      logging: { level: 'silent' },
      gateway: { rateLimit: { store: 'redis', onStoreFailure, redis: { url } } },
    },
  });
  const app = await createGateway({
    config,
    logger: pino({ level: 'silent' }),
    stores: { db, redis },
  });
  try {
    const response = await app.inject({ url: '/readyz' });
    return { status: response.statusCode, body: response.json() as unknown };
  } finally {
    await app.close();
    redis.disconnect();
    await db.close();
    await relay.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

test('/readyz with Redis down: ready (degraded) under fallback and open, 503 under closed', async () => {
  for (const policy of ['fallback', 'open'] as const)
    assert.deepEqual(
      await readinessWithRedisDown(policy),
      {
        status: 200,
        body: { status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } },
      },
      `onStoreFailure ${policy}`,
    );
  assert.deepEqual(await readinessWithRedisDown('closed'), {
    status: 503,
    body: { status: 'unavailable', checks: { database: 'ok', redis: 'unavailable' } },
  });
});
