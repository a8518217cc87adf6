// The admin plane's services on SQLite and PostgreSQL: the access-request state machine, provisioning
// without stored keys, keys collected once, visibility per developer, and an audit entry for every change
// committed (or rolled back) with it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../../../src/shared/db/types.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { AdminError } from '../../../src/gateway/admin/errors.js';
import type { Actor } from '../../../src/gateway/admin/actor.js';
import {
  ADMIN,
  ALICE,
  BOB,
  DATABASE_TARGETS,
  REQUEST,
  testConfig,
  type OpenedDatabase,
} from './support.js';

function code(error: unknown): string | undefined {
  return error instanceof AdminError ? error.code : undefined;
}

for (const target of DATABASE_TARGETS) {
  describe(`admin services: ${target.name}`, { skip: target.skip }, () => {
    let opened: OpenedDatabase;
    let db: Database;
    let services: AdminServices;
    before(async () => {
      opened = await target.open();
      db = opened.db;
      services = openAdminServices(db, testConfig());
    });
    after(async () => opened.close());

    test('request → approve provisions keyless subscriptions → the requester collects the keys once', async () => {
      const request = await services.accessRequests.create(ALICE, {
        ...REQUEST,
        environments: [...REQUEST.environments],
        tools: [...REQUEST.tools],
      });
      assert.equal(request.status, 'pending');
      assert.equal(request.requester, 'alice');

      const approved = await services.accessRequests.approve(ADMIN, request.id, {
        tools: ['getPayment'],
        rateLimitPerMinute: 30,
        note: 'narrowed',
      });
      assert.equal(approved.status, 'approved');
      assert.deepEqual(approved.approvedTools, ['getPayment']);
      assert.equal(approved.subscriptionIds.length, 2);
      // Provisioned without keys: nothing to leak until the requester collects them.
      for (const id of approved.subscriptionIds)
        assert.deepEqual(await services.subscriptions.keys(id), []);

      await assert.rejects(
        services.accessRequests.collectKeys(BOB, request.id),
        (e) => code(e) === 'NOT_FOUND',
      );
      await assert.rejects(
        services.accessRequests.collectKeys(ADMIN, request.id),
        (e) => code(e) === 'NOT_REQUESTER',
      );
      const collected = await services.accessRequests.collectKeys(ALICE, request.id);
      assert.deepEqual(
        collected.subscriptions.map((s) => s.environment),
        ['development', 'production'],
      );
      for (const s of collected.subscriptions) {
        const found = await services.subscriptions.findByKey(s.primaryKey);
        assert.equal(found?.subscription.id, s.subscriptionId);
        assert.deepEqual(found?.subscription.tools, ['getPayment']);
        assert.equal(found?.subscription.rateLimitPerMinute, 30);
        assert.equal((await services.subscriptions.findByKey(s.secondaryKey))?.slot, 'secondary');
      }
      await assert.rejects(
        services.accessRequests.collectKeys(ALICE, request.id),
        (e) => code(e) === 'KEYS_ALREADY_COLLECTED',
      );

      const audit = await services.audit.query({ target: `access-request:${request.id}` });
      assert.deepEqual(audit.map((e) => e.action).reverse(), [
        'access-request.create',
        'access-request.approve',
        'access-request.keys.collect',
      ]);
      const everything = JSON.stringify(await services.audit.query({ limit: 1000 }));
      for (const s of collected.subscriptions) {
        assert.ok(!everything.includes(s.primaryKey) && !everything.includes(s.secondaryKey));
      }
      assert.equal((await services.audit.verify()).ok, true);
    });

    test('pending → rejected is final; approval cannot widen the request; developers cannot decide', async () => {
      const request = await services.accessRequests.create(BOB, {
        application: 'bob-bot',
        owner: { name: 'Bob', email: 'bob@example.com' },
        tools: ['getPayment'],
        environments: ['staging'],
        justification: 'testing',
      });
      await assert.rejects(
        services.accessRequests.approve(BOB, request.id, {}),
        (e) => code(e) === 'FORBIDDEN',
      );
      await assert.rejects(
        services.accessRequests.approve(ADMIN, request.id, {
          tools: ['getPayment', 'createPayment'],
        }),
        (e) => code(e) === 'VALIDATION_FAILED',
      );
      const before = await services.audit.query({ target: `access-request:${request.id}` });
      assert.equal(
        before.length,
        1,
        'a refused approval leaves no audit entry and no subscription',
      );
      const rejected = await services.accessRequests.reject(ADMIN, request.id, 'no business case');
      assert.equal(rejected.status, 'rejected');
      assert.equal(rejected.decision?.note, 'no business case');
      assert.deepEqual(rejected.subscriptionIds, []);
      await assert.rejects(
        services.accessRequests.approve(ADMIN, request.id, {}),
        (e) => code(e) === 'REQUEST_NOT_PENDING',
      );
      await assert.rejects(
        services.accessRequests.collectKeys(BOB, request.id),
        (e) => code(e) === 'REQUEST_NOT_APPROVED',
      );
    });

    test('developers see only their own requests, applications and subscriptions', async () => {
      const mine = await services.accessRequests.list(ALICE);
      assert.ok(mine.length > 0 && mine.every((r) => r.requester === 'alice'));
      const bobs = (await services.accessRequests.list(BOB))[0];
      assert.ok(bobs);
      await assert.rejects(
        services.accessRequests.get(ALICE, bobs.id),
        (e) => code(e) === 'NOT_FOUND',
      );
      assert.ok((await services.accessRequests.list(ADMIN)).length >= 2);
      assert.deepEqual(
        (await services.applications.list(ALICE)).map((a) => a.name),
        ['shop-agent'],
      );
      const subs = await services.applications.visibleSubscriptions(ALICE);
      assert.equal(subs.length, 2);
      assert.deepEqual(await services.applications.visibleSubscriptions(BOB), []);
      const app = (await services.applications.list(ALICE))[0];
      assert.ok(app);
      await assert.rejects(services.applications.get(BOB, app.id), (e) => code(e) === 'NOT_FOUND');
      // Another owner's application name is not for the taking.
      await assert.rejects(
        services.accessRequests.create(BOB, {
          ...REQUEST,
          tools: 'all',
          environments: ['development'],
        }),
        (e) => code(e) === 'APPLICATION_NAME_TAKEN',
      );
    });

    test('owners are issuer + subject: the same subject from another issuer owns nothing', async () => {
      const elsewhere: Actor = { ...ALICE, issuer: 'https://another-idp.example.test' };
      const [request] = await services.accessRequests.list(ALICE);
      const [app] = await services.applications.list(ALICE);
      const [sub] = await services.applications.visibleSubscriptions(ALICE);
      assert.ok(request && app && sub);
      assert.deepEqual(await services.accessRequests.list(elsewhere), []);
      await assert.rejects(
        services.accessRequests.get(elsewhere, request.id),
        (e) => code(e) === 'NOT_FOUND',
      );
      await assert.rejects(
        services.accessRequests.collectKeys(elsewhere, request.id),
        (e) => code(e) === 'NOT_FOUND',
      );
      assert.deepEqual(await services.applications.list(elsewhere), []);
      await assert.rejects(
        services.applications.get(elsewhere, app.id),
        (e) => code(e) === 'NOT_FOUND',
      );
      assert.deepEqual(await services.applications.visibleSubscriptions(elsewhere), []);
      await assert.rejects(
        services.applications.subscription(elsewhere, sub.id),
        (e) => code(e) === 'NOT_FOUND',
      );
      await assert.rejects(
        services.provisioning.rotate(elsewhere, sub.id, 'secondary'),
        (e) => code(e) === 'NOT_FOUND',
      );
      assert.deepEqual((await services.usage.report(elsewhere, {})).subscriptions, []);
      await assert.rejects(
        services.accessRequests.create(elsewhere, {
          ...REQUEST,
          tools: 'all',
          environments: ['development'],
        }),
        (e) => code(e) === 'APPLICATION_NAME_TAKEN',
      );
      // The owner still owns it all.
      assert.equal((await services.applications.get(ALICE, app.id)).id, app.id);
    });

    test('the owner may rotate a key of their subscription; others may not; rotation is audited', async () => {
      const [sub] = await services.applications.visibleSubscriptions(ALICE);
      assert.ok(sub);
      await assert.rejects(
        services.provisioning.rotate(BOB, sub.id, 'primary'),
        (e) => code(e) === 'NOT_FOUND',
      );
      await assert.rejects(
        services.provisioning.setStatus(ALICE, sub.id, 'suspended'),
        (e) => code(e) === 'FORBIDDEN',
      );
      const { key } = await services.provisioning.rotate(ALICE, sub.id, 'primary');
      assert.equal((await services.subscriptions.findByKey(key))?.subscription.id, sub.id);
      const [entry] = await services.audit.query({ action: 'subscription.key.rotate' });
      assert.equal(entry?.actor.subject, 'alice');
      assert.ok(!JSON.stringify(entry).includes(key));
      assert.match(JSON.stringify(entry?.after), new RegExp(`tgk_…${key.slice(-4)}`));
    });

    test('two concurrent collections: exactly one gets the keys', async () => {
      const request = await services.accessRequests.create(ALICE, {
        ...REQUEST,
        application: 'race-agent',
        tools: 'all',
        environments: ['staging'],
      });
      await services.accessRequests.approve(ADMIN, request.id, {});
      const results = await Promise.allSettled([
        services.accessRequests.collectKeys(ALICE, request.id),
        services.accessRequests.collectKeys(ALICE, request.id),
      ]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      const refused = results.find((r) => r.status === 'rejected');
      assert.equal(
        code(refused?.status === 'rejected' ? refused.reason : undefined),
        'KEYS_ALREADY_COLLECTED',
      );
      const [subscriptionId] = (await services.accessRequests.get(ALICE, request.id))
        .subscriptionIds;
      assert.ok(subscriptionId);
      assert.equal(
        (await services.subscriptions.keys(subscriptionId)).length,
        2,
        'one pair of keys, not two',
      );
    });

    test('key policy: defaults, change audited, key ages follow it', async () => {
      assert.deepEqual(await services.keyPolicy.get(), {
        rotationDays: 90,
        warnDays: 14,
        enforce: { development: false, staging: false, production: false },
      });
      const policy = {
        rotationDays: 30,
        warnDays: 5,
        enforce: { development: false, staging: false, production: true },
      };
      await services.keyPolicy.set(ADMIN, policy);
      assert.deepEqual(await services.keyPolicy.get(), policy);
      const [entry] = await services.audit.query({ action: 'key-policy.update' });
      assert.deepEqual(entry?.after, policy);
      const subs = await services.applications.visibleSubscriptions(ALICE);
      assert.ok(subs.every((s) => s.keys.every((k) => k.ageDays === 0 && k.rotationDue === 'ok')));
    });
  });
}
