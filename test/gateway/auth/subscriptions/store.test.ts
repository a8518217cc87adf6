// The subscription store on SQLite always and on PostgreSQL when DATABASE_URL is set.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSqlite } from '../../../../src/shared/db/sqlite.js';
import { openPostgres } from '../../../../src/shared/db/postgres.js';
import { runMigrations } from '../../../../src/shared/db/migrations.js';
import type { Database } from '../../../../src/shared/db/types.js';
import { subscriptionMigrations } from '../../../../src/gateway/auth/subscriptions/migrations.js';
import { SubscriptionStore } from '../../../../src/gateway/auth/subscriptions/store.js';
import {
  SubscriptionKeyAuthenticator,
  type KeyRefusal,
} from '../../../../src/gateway/auth/subscriptions/authenticate.js';
import { keyRefusal } from '../../../../src/gateway/gatekeeper/refusals.js';
import { isWellFormedKey } from '../../../../src/gateway/auth/keys/format.js';
import {
  DATABASE_URL,
  dropSchema,
  skipWithoutPostgres,
  uniqueName,
} from '../../../helpers/infra.js';

const targets = [
  {
    name: 'sqlite',
    skip: false as string | false,
    open: async () => ({ db: openSqlite({ path: ':memory:' }), schema: '' }),
  },
  {
    name: 'postgres',
    skip: skipWithoutPostgres,
    open: async () => {
      const schema = uniqueName('tg_subs');
      const db = await openPostgres({
        url: DATABASE_URL ?? '',
        schema,
        poolSize: 3,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 10000,
      });
      return { db, schema };
    },
  },
];

for (const target of targets) {
  describe(`subscription store: ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    let schema: string;
    let store: SubscriptionStore;
    before(async () => {
      ({ db, schema } = await target.open());
      await runMigrations(db, 'subscriptions', subscriptionMigrations);
      store = new SubscriptionStore(db, 'pepper-for-tests-0123456789');
    });
    after(async () => {
      await db.close();
      if (schema) await dropSchema(schema);
    });

    test('create issues two distinct well-formed keys, stores only their hashes', async () => {
      const issued = await store.create({
        application: 'acme-agent',
        environment: 'staging',
        tools: ['getPayment'],
      });
      assert.ok(isWellFormedKey(issued.primaryKey));
      assert.ok(isWellFormedKey(issued.secondaryKey));
      assert.notEqual(issued.primaryKey, issued.secondaryKey);
      assert.equal(issued.subscription.status, 'active');
      assert.deepEqual(issued.subscription.tools, ['getPayment']);
      assert.deepEqual(issued.subscription.keyHints, {
        primary: issued.primaryKey.slice(-4),
        secondary: issued.secondaryKey.slice(-4),
      });
      const stored = await db.query<{ key_hash: string }>(
        'SELECT key_hash FROM subscription_keys WHERE subscription_id = $1',
        [issued.subscription.id],
      );
      assert.equal(stored.length, 2);
      for (const row of stored) {
        assert.match(row.key_hash, /^[0-9a-f]{64}$/);
        assert.notEqual(row.key_hash, issued.primaryKey);
      }
      const dump = JSON.stringify(await db.query('SELECT * FROM subscription_keys'));
      assert.equal(dump.includes(issued.primaryKey), false, 'the raw key is nowhere in the table');
    });

    test('findByKey resolves both slots; rotate replaces one slot and keeps the other', async () => {
      const issued = await store.create({ application: 'rotator', environment: 'production' });
      assert.equal((await store.findByKey(issued.primaryKey))?.slot, 'primary');
      assert.equal((await store.findByKey(issued.secondaryKey))?.slot, 'secondary');
      const { key } = await store.rotate(issued.subscription.id, 'primary');
      assert.equal(await store.findByKey(issued.primaryKey), null, 'old primary no longer works');
      assert.equal((await store.findByKey(key))?.subscription.id, issued.subscription.id);
      assert.equal(
        (await store.findByKey(issued.secondaryKey))?.slot,
        'secondary',
        'secondary kept working',
      );
    });

    test('suspend and resume keep keys; revoke deletes them and is terminal', async () => {
      const issued = await store.create({ application: 'lifecycle', environment: 'development' });
      const id = issued.subscription.id;
      assert.equal((await store.setStatus(id, 'suspended')).status, 'suspended');
      assert.equal((await store.findByKey(issued.primaryKey))?.subscription.status, 'suspended');
      assert.equal((await store.setStatus(id, 'active')).status, 'active');
      assert.equal((await store.setStatus(id, 'revoked')).status, 'revoked');
      assert.equal(await store.findByKey(issued.primaryKey), null);
      await assert.rejects(store.setStatus(id, 'active'), { code: 'SUBSCRIPTION_REVOKED' });
      await assert.rejects(store.rotate(id, 'primary'), { code: 'SUBSCRIPTION_REVOKED' });
      await assert.rejects(store.setStatus('sub_missing', 'active'), {
        code: 'SUBSCRIPTION_NOT_FOUND',
      });
    });

    test('invalid input is refused with a clear reason', async () => {
      await assert.rejects(store.create({ application: '', environment: 'development' }), {
        code: 'INVALID_ARGUMENT',
      });
      await assert.rejects(
        store.create({ application: 'x', environment: 'development', tools: ['bad name!'] }),
        {
          code: 'INVALID_ARGUMENT',
          message: /tool name "bad name!"/,
        },
      );
      await assert.rejects(
        store.create({ application: 'x', environment: 'development', rateLimitPerMinute: 0 }),
        {
          code: 'INVALID_ARGUMENT',
        },
      );
    });

    test('the pepper matters: another pepper finds nothing', async () => {
      const issued = await store.create({ application: 'pepper', environment: 'development' });
      const other = new SubscriptionStore(db, 'a-different-pepper-9876543210');
      assert.equal(await other.findByKey(issued.primaryKey), null);
    });
  });
}

/** The HTTP status the gateway answers a refused key with. */
const status = (refusal: KeyRefusal): number => keyRefusal(refusal).httpStatus;

describe('subscription key authenticator', () => {
  let db: Database;
  let store: SubscriptionStore;
  let now = 1_000_000;
  const clock = () => now;
  before(async () => {
    db = openSqlite({ path: ':memory:' });
    await runMigrations(db, 'subscriptions', subscriptionMigrations);
    store = new SubscriptionStore(db);
  });
  after(async () => db.close());

  const authenticator = (cacheTtlMs = 0) =>
    new SubscriptionKeyAuthenticator(store, {
      environment: 'production',
      cacheTtlMs,
      failedAttempts: { limit: 3, windowSeconds: 60 },
      clock,
    });

  test('missing → 401, unknown/malformed → 401, other environment → 401, suspended → 403, revoked → 401', async () => {
    const auth = authenticator();
    const prod = await store.create({ application: 'a', environment: 'production' });
    const staging = await store.create({ application: 'a', environment: 'staging' });
    assert.deepEqual(await auth.check(prod.primaryKey, '10.0.0.1'), {
      ok: true,
      subscription: (await store.findByKey(prod.primaryKey))?.subscription,
    });
    assert.equal((await auth.check(undefined, '10.0.0.2')).ok, false);
    const missing = await auth.check(undefined, '10.0.0.2');
    assert.ok(
      !missing.ok && status(missing) === 401 && missing.reason === 'SUBSCRIPTION_KEY_MISSING',
    );
    const wrongEnv = await auth.check(staging.primaryKey, '10.0.0.3');
    assert.ok(
      !wrongEnv.ok &&
        status(wrongEnv) === 401 &&
        wrongEnv.reason === 'SUBSCRIPTION_WRONG_ENVIRONMENT',
    );
    const garbage = await auth.check('not-a-key', '10.0.0.4');
    assert.ok(
      !garbage.ok && status(garbage) === 401 && garbage.reason === 'SUBSCRIPTION_KEY_INVALID',
    );
    await store.setStatus(prod.subscription.id, 'suspended');
    const suspended = await auth.check(prod.primaryKey, '10.0.0.5');
    assert.ok(
      !suspended.ok && status(suspended) === 403 && suspended.reason === 'SUBSCRIPTION_SUSPENDED',
    );
    await store.setStatus(prod.subscription.id, 'revoked');
    const revoked = await auth.check(prod.primaryKey, '10.0.0.5');
    assert.ok(
      !revoked.ok && status(revoked) === 401 && revoked.reason === 'SUBSCRIPTION_KEY_INVALID',
    );
  });

  test('failed attempts per client IP are limited, even a correct key is refused until the window passes', async () => {
    const auth = authenticator();
    const good = await store.create({ application: 'b', environment: 'production' });
    for (let i = 0; i < 3; i++)
      assert.equal((await auth.check(`tgk_guess${i}`, '192.0.2.9')).ok, false);
    const blocked = await auth.check(good.primaryKey, '192.0.2.9');
    assert.ok(
      !blocked.ok && status(blocked) === 429 && blocked.reason === 'TOO_MANY_FAILED_ATTEMPTS',
    );
    assert.equal('retryAfterMs' in blocked && blocked.retryAfterMs, 60_000);
    assert.equal(keyRefusal(blocked).headers?.['Retry-After'], '60');
    assert.equal(
      (await auth.check(good.primaryKey, '192.0.2.10')).ok,
      true,
      'other addresses are unaffected',
    );
    now += 60_000;
    assert.equal(
      (await auth.check(good.primaryKey, '192.0.2.9')).ok,
      true,
      'allowed again after the window',
    );
  });

  test('failed attempts from one IPv6 /64 are counted together, as the anonymous quota counts them', async () => {
    const auth = authenticator();
    const good = await store.create({ application: 'v6', environment: 'production' });
    // Three guesses from three addresses of one /64 lock the whole /64 (limit 3).
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::9'])
      assert.equal((await auth.check('tgk_guess', ip)).ok, false);
    const sameNet = await auth.check(good.primaryKey, '2001:db8:1:2::77');
    assert.ok(!sameNet.ok && sameNet.reason === 'TOO_MANY_FAILED_ATTEMPTS');
    assert.equal(
      (await auth.check(good.primaryKey, '2001:db8:1:3::1')).ok,
      true,
      'next /64 unaffected',
    );
  });

  test('a lockout-exempt subscription keeps working from a locked-out address; guesses and other keys do not; an ended exemption is locked too', async () => {
    const auth = authenticator();
    const exempt = await store.create({
      application: 'behind-nat',
      environment: 'production',
      lockoutExempt: true,
    });
    const normal = await store.create({ application: 'other', environment: 'production' });
    for (let i = 0; i < 3; i++) await auth.check(`tgk_guess${i}`, '203.0.113.50');
    assert.equal((await auth.check(exempt.primaryKey, '203.0.113.50')).ok, true);
    const locked = await auth.check(normal.primaryKey, '203.0.113.50');
    assert.ok(!locked.ok && locked.reason === 'TOO_MANY_FAILED_ATTEMPTS');
    const guess = await auth.check('tgk_another_guess', '203.0.113.50');
    assert.ok(!guess.ok && guess.reason === 'TOO_MANY_FAILED_ATTEMPTS');
    // The exemption can be ended; then the lock applies to it as well.
    const ended = await store.setLockoutExempt(exempt.subscription.id, false);
    assert.equal(ended.lockoutExempt, false);
    const fresh = authenticator();
    for (let i = 0; i < 3; i++) await fresh.check(`tgk_guess${i}`, '203.0.113.51');
    assert.equal((await fresh.check(exempt.primaryKey, '203.0.113.51')).ok, false);
  });

  test('lookups are cached for cacheTtlMs, so a status change takes effect within that time', async () => {
    const auth = authenticator(10_000);
    const issued = await store.create({ application: 'c', environment: 'production' });
    assert.equal((await auth.check(issued.primaryKey, '198.51.100.1')).ok, true);
    await store.setStatus(issued.subscription.id, 'suspended');
    assert.equal(
      (await auth.check(issued.primaryKey, '198.51.100.1')).ok,
      true,
      'cached within the TTL',
    );
    now += 10_001;
    const after = await auth.check(issued.primaryKey, '198.51.100.1');
    assert.ok(!after.ok && after.reason === 'SUBSCRIPTION_SUSPENDED');
  });
});
