// Key age at the gateway: an environment the policy enforces refuses keys older than rotationDays with
// SUBSCRIPTION_KEY_EXPIRED; others keep accepting them. Accepted keys record their last use, at most
// once per interval.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { SubscriptionKeyAuthenticator } from '../../../src/gateway/auth/subscriptions/authenticate.js';
import { keyRefusal } from '../../../src/gateway/gatekeeper/refusals.js';
import { KeyUseRecorder } from '../../../src/gateway/auth/subscriptions/key-use.js';
import { DEFAULT_KEY_POLICY, type KeyPolicy } from '../../../src/gateway/admin/key-policy.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { fixtureBackendConfig, MCP_HEADERS } from '../support/gateway.js';
import { ADMIN, testConfig } from './support.js';

const DAY = 86_400_000;

describe('key expiry and last use', () => {
  let db: Database;
  let services: AdminServices;

  before(async () => {
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    services = openAdminServices(db, testConfig());
  });
  after(async () => db.close());

  test('the authenticator refuses a key past rotationDays only where the policy enforces it', async () => {
    const issued = await services.provisioning.create(ADMIN, {
      application: 'aging',
      environment: 'production',
    });
    let now = Date.now();
    let policy: KeyPolicy = {
      ...DEFAULT_KEY_POLICY,
      enforce: { ...DEFAULT_KEY_POLICY.enforce, production: true },
    };
    const check = (environment: 'production' | 'staging') =>
      new SubscriptionKeyAuthenticator(services.subscriptions, {
        environment,
        cacheTtlMs: 10_000,
        failedAttempts: { limit: 100, windowSeconds: 60 },
        clock: () => now,
        keyPolicy: { current: () => policy },
      });
    const production = check('production');
    assert.equal((await production.check(issued.primaryKey, '10.0.0.1')).ok, true);
    now += 91 * DAY;
    const refused = await production.check(issued.primaryKey, '10.0.0.1');
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.reason, 'SUBSCRIPTION_KEY_EXPIRED');
    assert.equal(!refused.ok && keyRefusal(refused).httpStatus, 401);
    // The same key in an environment the policy does not enforce (wrong environment aside) is only warned about.
    policy = DEFAULT_KEY_POLICY;
    assert.equal((await production.check(issued.primaryKey, '10.0.0.1')).ok, true);
    // A rotated key is young again.
    policy = {
      ...DEFAULT_KEY_POLICY,
      enforce: { ...DEFAULT_KEY_POLICY.enforce, production: true },
    };
    const { key } = await services.provisioning.rotate(ADMIN, issued.subscription.id, 'secondary');
    const fresh = check('production');
    assert.equal(
      (await fresh.check(key, '10.0.0.2')).ok,
      false,
      'rotated now, but the clock is 91 days on',
    );
    now = Date.now();
    assert.equal((await fresh.check(key, '10.0.0.2')).ok, true);
  });

  test('a gateway on the database refuses an expired key once the policy enforces its environment', async () => {
    let backend: FixtureBackend | undefined;
    let gateway: FastifyInstance | undefined;
    try {
      backend = await startFixtureBackend();
      const config = testConfig({
        gateway: {
          backends: [fixtureBackendConfig(backend.baseUrl)],
          auth: { devIdentityProvider: { enabled: false } },
        },
      });
      const issued = await services.provisioning.create(ADMIN, {
        application: 'old',
        environment: 'development',
      });
      // The key was minted 100 days ago (as if the database had been running that long).
      const longAgo = new Date(Date.now() - 100 * DAY).toISOString();
      await db.execute('UPDATE subscription_keys SET created_at = $2 WHERE subscription_id = $1', [
        issued.subscription.id,
        longAgo,
      ]);
      await services.keyPolicy.set(ADMIN, {
        rotationDays: 90,
        warnDays: 14,
        enforce: { development: true, staging: false, production: false },
      });
      gateway = await createGateway({ config, logger: pino({ level: 'silent' }), stores: { db } });
      const reply = await gateway.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          ...MCP_HEADERS,
          'mcp-protocol-version': '2025-11-25',
          'ocp-apim-subscription-key': issued.primaryKey,
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      assert.equal(reply.statusCode, 401);
      const body = reply.json() as {
        error: { code: number; message: string; data: { reason: string } };
      };
      assert.equal(body.error.data.reason, 'SUBSCRIPTION_KEY_EXPIRED');
      assert.match(body.error.message, /rotation policy/);
      const view = (await services.applications.visibleSubscriptions(ADMIN)).find(
        (s) => s.id === issued.subscription.id,
      );
      assert.deepEqual(
        view?.keys.map((k) => [k.rotationDue, k.ageDays]),
        [
          ['expired', 100],
          ['expired', 100],
        ],
      );
    } finally {
      await gateway?.close();
      await backend?.close();
      await services.keyPolicy.set(ADMIN, DEFAULT_KEY_POLICY);
    }
  });

  test('last use is written in batches, at most once per interval per key', async () => {
    const issued = await services.provisioning.create(ADMIN, {
      application: 'busy',
      environment: 'staging',
    });
    const hash = services.subscriptions.hash(issued.primaryKey);
    let now = Date.parse('2026-01-01T00:00:00Z');
    const recorder = new KeyUseRecorder(services.subscriptions, 60_000, () => now);
    try {
      recorder.used(hash);
      now += 1_000;
      recorder.used(hash);
      await recorder.flush();
      const lastUsed = async () =>
        (await services.subscriptions.keys(issued.subscription.id)).find(
          (k) => k.slot === 'primary',
        )?.lastUsedAt;
      assert.equal(await lastUsed(), '2026-01-01T00:00:00.000Z');
      now += 30_000;
      recorder.used(hash);
      await recorder.flush();
      assert.equal(
        await lastUsed(),
        '2026-01-01T00:00:00.000Z',
        'within the interval nothing is written',
      );
      now += 60_000;
      recorder.used(hash);
      await recorder.flush();
      assert.equal(await lastUsed(), new Date(now).toISOString());
    } finally {
      await recorder.close();
    }
  });
});
