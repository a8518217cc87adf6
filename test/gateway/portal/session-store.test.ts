// The portal's stores on SQLite always and on PostgreSQL when DATABASE_URL is set: sessions keyed by the
// hash of their id with idle and absolute expiry, and OpenID Connect sign-ins taken once.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { runMigrations } from '../../../src/shared/db/migrations.js';
import type { Database } from '../../../src/shared/db/types.js';
import { portalMigrations } from '../../../src/gateway/portal/migrations.js';
import { SessionStore, csrfMatches, sha256 } from '../../../src/gateway/portal/session-store.js';
import { OidcLoginStore } from '../../../src/gateway/portal/oidc-login-store.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';

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
      const schema = uniqueName('tg_portal');
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

const ACTOR = {
  role: 'developer',
  subject: 'dana',
  issuer: 'https://idp.example.test',
  via: 'oidc-session',
  name: 'Dana',
} as const;

for (const target of targets) {
  describe(`portal stores: ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    let schema: string;
    let now = Date.parse('2026-03-01T09:00:00Z');
    const clock = () => now;

    before(async () => {
      ({ db, schema } = await target.open());
      await runMigrations(db, 'portal', portalMigrations);
      await runMigrations(db, 'portal', portalMigrations); // idempotent
    });
    after(async () => {
      await db.close();
      if (schema) await dropSchema(schema);
    });

    test('a session is found by its id, stored only as a hash, and carries its CSRF token', async () => {
      const sessions = new SessionStore(db, { idleMs: 60_000, absoluteMs: 3_600_000 }, clock);
      const { id, session } = await sessions.create(ACTOR);
      const rows = await db.query<{ id_hash: string }>(
        'SELECT id_hash FROM portal_sessions WHERE subject = $1',
        ['dana'],
      );
      assert.deepEqual(
        rows.map((r) => r.id_hash),
        [sha256(id)],
      );
      const found = await sessions.find(id);
      assert.deepEqual(found?.actor, ACTOR);
      assert.equal(found?.csrfToken, session.csrfToken);
      assert.ok(found && csrfMatches(found, session.csrfToken));
      assert.ok(found && !csrfMatches(found, `${session.csrfToken}x`));
      const other = id.endsWith('A') ? 'B' : 'A';
      assert.equal(await sessions.find(`${id.slice(0, -1)}${other}`), null, 'one character off');
      assert.equal(await sessions.find(undefined), null);
    });

    test('idle and absolute expiry end a session and remove its row; destroy signs out', async () => {
      const sessions = new SessionStore(db, { idleMs: 60_000, absoluteMs: 150_000 }, clock);
      const { id } = await sessions.create(ACTOR);
      now += 59_000;
      assert.ok(await sessions.find(id), 'active within the idle time');
      now += 59_000;
      assert.ok(await sessions.find(id), 'each request restarts the idle timer');
      now += 40_000;
      assert.equal(await sessions.find(id), null, 'past the absolute lifetime');
      const left = await db.query('SELECT 1 FROM portal_sessions WHERE id_hash = $1', [sha256(id)]);
      assert.equal(left.length, 0);

      const idle = await sessions.create(ACTOR);
      now += 60_000;
      assert.equal(await sessions.find(idle.id), null, 'idle for the whole idle time');

      const out = await sessions.create(ACTOR);
      await sessions.destroy(out.id);
      assert.equal(await sessions.find(out.id), null);
    });

    test('a pending OpenID Connect sign-in is taken once, and not after ten minutes', async () => {
      const logins = new OidcLoginStore(db, clock);
      await logins.save({ state: 'state-1', nonce: 'n1', codeVerifier: 'v1' });
      assert.deepEqual(await logins.take('state-1'), { nonce: 'n1', codeVerifier: 'v1' });
      assert.equal(await logins.take('state-1'), null, 'single use');
      await logins.save({ state: 'state-2', nonce: 'n2', codeVerifier: 'v2' });
      now += 10 * 60_000;
      assert.equal(await logins.take('state-2'), null, 'expired');
      assert.equal(await logins.take('unknown'), null);
    });
  });
}
