// The failed-key lockout is counted in the rate limiter's store, so workers and replicas that share Redis
// share one count per client address (`toolgate gateway --workers N` used to give each worker its own 20
// guesses); when Redis cannot decide, the lockout follows gateway.rateLimit.onStoreFailure like the quotas.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../../src/config/load.js';
import { parseRateLimitConfig } from '../../../../src/config/gateway-ratelimit.js';
import { createGateway } from '../../../../src/gateway/create-gateway.js';
import { migrateGatewayDatabase } from '../../../../src/gateway/database.js';
import { SubscriptionKeyAuthenticator } from '../../../../src/gateway/auth/subscriptions/authenticate.js';
import { SubscriptionStore } from '../../../../src/gateway/auth/subscriptions/store.js';
import { keyRefusal } from '../../../../src/gateway/gatekeeper/refusals.js';
import { createRateLimiter } from '../../../../src/gateway/ratelimit/limiter.js';
import { openSqlite } from '../../../../src/shared/db/sqlite.js';
import type { Database } from '../../../../src/shared/db/types.js';
import { createLogger } from '../../../../src/shared/log/logger.js';
import { LogCapture } from '../../../helpers/capture.js';
import { REDIS_URL, skipWithoutRedis, uniqueName } from '../../../helpers/infra.js';
import { startTcpRelay, type TcpRelay } from '../../../helpers/tcp-relay.js';
import { MCP_HEADERS } from '../../support/gateway.js';

const GUESSER = '198.51.100.23';
const GUESS = 'tgk_not_a_key_at_all';

describe(
  'failed-key lockout shared by two gateways on one Redis',
  { skip: skipWithoutRedis },
  () => {
    let db: Database;
    let key: string;
    const gateways: FastifyInstance[] = [];
    const prefix = `${uniqueName('toolgate-test:lockout')}:`;

    before(async () => {
      db = openSqlite({ path: ':memory:' });
      await migrateGatewayDatabase(db);
      key = (
        await new SubscriptionStore(db).create({ application: 'a', environment: 'development' })
      ).primaryKey;
      // Two replicas (or two workers of `--workers 2`): one database, one Redis, the default 20 per 60 s.
      for (let i = 0; i < 2; i++) {
        const config = loadConfig({
          env: {},
          overrides: {
            dataDir: mkdtempSync(join(tmpdir(), 'toolgate-lockout-')),
            logging: { level: 'warn' },
            gateway: {
              auth: { devIdentityProvider: { enabled: false } },
              rateLimit: { store: 'redis', redis: { url: REDIS_URL, keyPrefix: prefix } },
            },
          },
        });
        const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
        gateways.push(await createGateway({ config, logger, stores: { db } }));
      }
    });
    after(async () => {
      for (const gateway of gateways) await gateway.close();
      await db.close();
      const { Redis } = await import('ioredis');
      const redis = new Redis(REDIS_URL ?? '');
      const keys = await redis.keys(`{${prefix}}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });

    const ping = async (gateway: FastifyInstance, subscriptionKey: string, from = GUESSER) => {
      const reply = await gateway.inject({
        method: 'POST',
        url: '/mcp',
        remoteAddress: from,
        headers: { ...MCP_HEADERS, 'ocp-apim-subscription-key': subscriptionKey },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      const body = reply.json() as { error?: { data?: { reason?: string } } };
      return { status: reply.statusCode, reason: body.error?.data?.reason, headers: reply.headers };
    };

    test('20 guesses spread over both gateways, then the 21st on either is refused, the right key too', async () => {
      for (let i = 0; i < 20; i++) {
        const guess = await ping(gateways[i % 2] as FastifyInstance, `${GUESS}${i}`);
        assert.deepEqual(
          [guess.status, guess.reason],
          [401, 'SUBSCRIPTION_KEY_INVALID'],
          `guess ${i}`,
        );
      }
      // Each gateway saw 10: counted per process, both would still answer 401.
      const twentyFirst = await ping(gateways[0] as FastifyInstance, `${GUESS}20`);
      assert.deepEqual([twentyFirst.status, twentyFirst.reason], [429, 'TOO_MANY_FAILED_ATTEMPTS']);
      assert.ok(Number(twentyFirst.headers['retry-after']) >= 1);
      const right = await ping(gateways[1] as FastifyInstance, key);
      assert.deepEqual([right.status, right.reason], [429, 'TOO_MANY_FAILED_ATTEMPTS']);
      assert.equal((await ping(gateways[1] as FastifyInstance, key, '203.0.113.99')).status, 200);
    });
  },
);

describe('failed-key lockout when Redis cannot decide: gateway.rateLimit.onStoreFailure', () => {
  let db: Database;
  let store: SubscriptionStore;
  let relay: TcpRelay;
  let scratch: string;
  let key: string;

  before(async () => {
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    store = new SubscriptionStore(db);
    key = (await store.create({ application: 'a', environment: 'development' })).primaryKey;
    // Nothing listens behind the relay: every connection is closed at once, as Redis down looks.
    scratch = mkdtempSync(join(tmpdir(), 'toolgate-lockout-down-'));
    relay = await startTcpRelay(join(scratch, 'nobody.sock'));
  });
  after(async () => {
    await relay.close();
    await db.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** The status of each of `count` guesses and then of the right key, from one address. */
  async function attempts(onStoreFailure: 'fallback' | 'open' | 'closed', count: number) {
    const limiter = createRateLimiter(
      parseRateLimitConfig({
        store: 'redis',
        onStoreFailure,
        redis: { url: `redis://127.0.0.1:${relay.port}` },
      }),
    );
    const keys = new SubscriptionKeyAuthenticator(store, {
      environment: 'development',
      cacheTtlMs: 0,
      failedAttempts: { limit: 3, windowSeconds: 60 },
      attempts: limiter.store,
    });
    const status = async (presented: string) => {
      const decision = await keys.check(presented, GUESSER);
      return decision.ok ? 200 : keyRefusal(decision).httpStatus;
    };
    try {
      const guesses: number[] = [];
      for (let i = 0; i < count; i++) guesses.push(await status(`${GUESS}${i}`));
      return { guesses, right: await status(key) };
    } finally {
      await limiter.close();
    }
  }

  test('fallback: this process counts alone (3 guesses, then 429 for any key)', async () => {
    assert.deepEqual(await attempts('fallback', 4), { guesses: [401, 401, 401, 429], right: 429 });
  });

  test('open: guesses are not counted while Redis is down (as quotas admit unchecked)', async () => {
    assert.deepEqual(await attempts('open', 5), {
      guesses: [401, 401, 401, 401, 401],
      right: 200,
    });
  });

  test('closed: a key cannot be checked against the lockout → 503 Rate limiter unavailable', async () => {
    const limiter = createRateLimiter(
      parseRateLimitConfig({
        store: 'redis',
        onStoreFailure: 'closed',
        redis: { url: `redis://127.0.0.1:${relay.port}` },
      }),
    );
    try {
      const keys = new SubscriptionKeyAuthenticator(store, {
        environment: 'development',
        cacheTtlMs: 0,
        failedAttempts: { limit: 3, windowSeconds: 60 },
        attempts: limiter.store,
      });
      const decision = await keys.check(key, GUESSER);
      assert.equal(decision.ok, false);
      const refusal = !decision.ok ? keyRefusal(decision) : undefined;
      assert.equal(refusal?.code, 'RATE_LIMIT_UNAVAILABLE');
      assert.equal(refusal?.httpStatus, 503);
      assert.equal(refusal?.message, 'Rate limiter unavailable');
      assert.deepEqual(refusal?.data, { retryAfterSeconds: 1 });
      assert.deepEqual(refusal?.headers, { 'Retry-After': '1' });
      // No key at all needs no counter: still 401.
      const missing = await keys.check(undefined, GUESSER);
      assert.equal(!missing.ok && keyRefusal(missing).httpStatus, 401);
    } finally {
      await limiter.close();
    }
  });
});
