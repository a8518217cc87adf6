// The seam other parts of the admin plane plug into: an extension's route modules run behind the API's
// authentication and appear in the OpenAPI document, its portal is mounted at /portal/, it may replace the
// user-token verifier, and it is closed with the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import type { AdminExtension } from '../../../src/gateway/admin/extensions.js';
import { actorOf } from '../../../src/gateway/admin/http/module.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openAdminServices } from '../../../src/gateway/admin/services.js';
import { testConfig } from './support.js';
import { liveServicesOf } from '../../../src/gateway/admin/live-extension.js';
import type { LiveAdminServices } from '../../../src/gateway/admin/live-services.js';

test('an extension contributes routes, paths, a portal and the verifier, and is closed with the app', async () => {
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  let closed = false;
  let verifierAsked = 0;
  const extension: AdminExtension = {
    name: 'probe',
    routes: (context) => [
      {
        name: 'probe',
        plugin: async (app) => {
          app.get('/probe', async (request) => ({
            actor: actorOf(request).subject,
            policy: (await context.services.keyPolicy.get()).rotationDays,
          }));
        },
        openApiPaths: { '/probe': { get: { summary: 'probe', responses: {} } } },
      },
    ],
    portal: () => async (app) => {
      app.get('/', async () => ({ portal: true }));
    },
    userTokenVerifier: () => () => {
      verifierAsked += 1;
      return null;
    },
    close: () => {
      closed = true;
    },
  };
  const config = testConfig();
  const app = await createAdminApp({
    config,
    logger: pino({ level: 'silent' }),
    db,
    extensions: [extension],
  });
  try {
    const { token } = await openAdminServices(db, config).bootstrapTokens.rotate();
    const probe = await app.inject({
      url: '/admin/api/v1/probe',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.deepEqual(probe.json(), { actor: 'bootstrap-admin', policy: 90 });
    assert.equal(
      (await app.inject({ url: '/admin/api/v1/probe' })).statusCode,
      401,
      'behind authentication',
    );
    const doc = (await app.inject({ url: '/admin/api/v1/openapi.json' })).json() as {
      paths: Record<string, unknown>;
    };
    assert.ok(doc.paths['/probe'] && doc.paths['/access-requests']);
    assert.deepEqual((await app.inject({ url: '/portal/' })).json(), { portal: true });
    const jwtShaped = await app.inject({
      url: '/admin/api/v1/me',
      headers: { authorization: 'Bearer aaaa.bbbb.cccc' },
    });
    assert.equal(jwtShaped.statusCode, 401);
    assert.match((jwtShaped.json() as { detail: string }).detail, /no identity provider/);
    assert.equal(verifierAsked, 1, "the extension's verifier is the one consulted");
  } finally {
    await app.close();
    await db.close();
  }
  assert.equal(closed, true);
});

test('the API routes and the portal share one set of live services per app (opened once, not twice)', async () => {
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const seen: LiveAdminServices[] = [];
  const extension: AdminExtension = {
    name: 'two-users-of-live-services',
    routes: (context) => {
      seen.push(liveServicesOf(context));
      return [];
    },
    portal: (context) => {
      seen.push(liveServicesOf(context));
      return async () => {};
    },
  };
  const app = await createAdminApp({
    config: testConfig(),
    logger: pino({ level: 'silent' }),
    db,
    extensions: [extension],
  });
  try {
    assert.equal(seen.length, 2);
    assert.equal(seen[0], seen[1], 'the portal got the same services object as the API routes');
  } finally {
    await app.close();
    await db.close();
  }
});
