// The admin app built from configuration alone: without an identity provider only the bootstrap token
// signs in (a user token is refused, saying why); the portal is mounted beside the API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices } from '../../../src/gateway/admin/services.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { testConfig } from './support.js';

test('without an identity provider, a user token is refused saying so; the portal is mounted', async () => {
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const config = testConfig({ gateway: { auth: { devIdentityProvider: { enabled: false } } } });
  const app = await createAdminApp({ config, logger: pino({ level: 'silent' }), db });
  try {
    const { token } = await openAdminServices(db, config).bootstrapTokens.rotate();
    const me = await app.inject({
      url: '/admin/api/v1/me',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.deepEqual(me.json(), {
      role: 'admin',
      subject: 'bootstrap-admin',
      via: 'bootstrap-token',
    });
    assert.equal((await app.inject({ url: '/admin/api/v1/me' })).statusCode, 401);
    const jwtShaped = await app.inject({
      url: '/admin/api/v1/me',
      headers: { authorization: 'Bearer aaaa.bbbb.cccc' },
    });
    assert.equal(jwtShaped.statusCode, 401);
    assert.match((jwtShaped.json() as { detail: string }).detail, /no identity provider/);
    const idp = await app.inject({
      url: '/admin/api/v1/identity-provider',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal((idp.json() as { source: string }).source, 'none');
    const portal = await app.inject({ url: '/portal/sign-in' });
    assert.equal(portal.statusCode, 200);
    assert.match(portal.body, /Sign in/);
  } finally {
    await app.close();
    await db.close();
  }
});
