// Admin migration 2 on a database written before owners had issuers: toolgate's own actors' rows get the
// issuer "" (no token has it), users' rows keep none and stay theirs by subject; rows written afterwards
// carry the issuer, so the same subject from another issuer owns nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import type { Database } from '../../../src/shared/db/types.js';
import type { Actor } from '../../../src/gateway/admin/actor.js';
import { adminMigrations } from '../../../src/gateway/admin/migrations.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { subscriptionMigrations } from '../../../src/gateway/auth/subscriptions/migrations.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { ALICE, DATABASE_TARGETS, ISSUER, testConfig, type OpenedDatabase } from './support.js';

const BOOTSTRAP: Actor = { role: 'admin', subject: 'bootstrap-admin', via: 'bootstrap-token' };
const CLI: Actor = { role: 'admin', subject: 'cli:ops', via: 'cli' };

for (const target of DATABASE_TARGETS)
  describe(`owners before issuers (${target.name})`, { skip: target.skip }, () => {
    let opened: OpenedDatabase;
    let db: Database;
    let services: AdminServices;

    before(async () => {
      opened = await target.open(false);
      db = opened.db;
      await runMigrations(db, 'subscriptions', subscriptionMigrations);
      await runMigrations(db, 'admin', adminMigrations.slice(0, 1));
      for (const [id, name, owner] of [
        ['app_boot', 'ops-bootstrap', 'bootstrap-admin'],
        ['app_cli', 'ops-cli', 'cli:ops'],
        ['app_alice', 'alice-agent', 'alice'],
      ] as const) {
        await db.execute(
          `INSERT INTO admin_applications (id, name, owner_subject, owner_name, owner_email, created_at, updated_at)
           VALUES ($1, $2, $3, 'Owner', 'owner@example.com', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
          [id, name, owner],
        );
        await db.execute(
          `INSERT INTO admin_access_requests (id, application_id, requester_subject, owner_name, owner_email,
             environments, justification, status, created_at, updated_at)
           VALUES ($1, $2, $3, 'Owner', 'owner@example.com', '["development"]', 'old', 'pending',
             '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
          [`req_${id}`, id, owner],
        );
      }
      await migrateGatewayDatabase(db);
      services = openAdminServices(db, testConfig());
    });
    after(async () => opened.close());

    test("toolgate's own actors' rows get the empty issuer; users' rows none", async () => {
      const rows = await db.query<{ id: string; owner_issuer: string | null }>(
        'SELECT id, owner_issuer FROM admin_applications ORDER BY id',
      );
      assert.deepEqual(
        rows.map((r) => [r.id, r.owner_issuer]),
        [
          ['app_alice', null],
          ['app_boot', ''],
          ['app_cli', ''],
        ],
      );
      const requests = await db.query<{ id: string; requester_issuer: string | null }>(
        'SELECT id, requester_issuer FROM admin_access_requests ORDER BY id',
      );
      assert.deepEqual(
        requests.map((r) => [r.id, r.requester_issuer]),
        [
          ['req_app_alice', null],
          ['req_app_boot', ''],
          ['req_app_cli', ''],
        ],
      );
    });

    test('old rows stay their owners’; a user token can never own an internal actor’s', async () => {
      assert.deepEqual(
        (await services.applications.list(ALICE)).map((a) => a.id),
        ['app_alice'],
      );
      assert.deepEqual(
        (await services.accessRequests.list({ ...ALICE, role: 'developer' })).map((r) => r.id),
        ['req_app_alice'],
      );
      // Even if a token could name the bootstrap admin's subject, its issuer is not "".
      const named: Actor = {
        role: 'developer',
        subject: 'bootstrap-admin',
        issuer: ISSUER,
        via: 'bearer-token',
      };
      assert.deepEqual(await services.accessRequests.list(named), []);
      assert.deepEqual(await services.applications.list(named), []);
      assert.deepEqual(
        (await services.applications.list({ ...CLI, role: 'developer' })).map((a) => a.id),
        ['app_cli'],
      );
      // New rows carry the issuer: the bootstrap admin's new request is not a user's either.
      await services.accessRequests.create(BOOTSTRAP, {
        application: 'ops-bootstrap',
        owner: { name: 'Ops', email: 'ops@example.com' },
        tools: 'all',
        environments: ['staging'],
        justification: 'new',
      });
      const [stored] = await db.query<{ requester_issuer: string | null }>(
        "SELECT requester_issuer FROM admin_access_requests WHERE justification = 'new'",
      );
      assert.equal(stored?.requester_issuer, '');
      assert.equal((await services.accessRequests.list(named)).length, 0);
    });
  });
