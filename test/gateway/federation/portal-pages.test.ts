// Issue 28: "the portal's tool pages show them" — upstream MCP tools on the admin tool list and detail
// page (backend, upstream name) and in the developer catalogue, from the real admin app (inject) over a
// configuration federating an SDK upstream beside the OpenAPI fixture; an admin API approval of an
// upstream tool is stored and audited like any other.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { ADMIN, testConfig } from '../admin/support.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { fixtureBackendConfig } from '../support/gateway.js';
import { startSdkUpstream, type SdkUpstream } from './support/sdk-upstream.js';

describe('portal tool pages with upstream MCP tools', () => {
  let db: Database;
  let admin: FastifyInstance;
  let services: AdminServices;
  let backend: FixtureBackend;
  let upstream: SdkUpstream;
  let cookie: string;

  before(async () => {
    backend = await startFixtureBackend();
    upstream = await startSdkUpstream();
    const config = testConfig({
      gateway: {
        backends: [
          fixtureBackendConfig(backend.baseUrl),
          {
            name: 'notes',
            mcp: { url: upstream.url },
            timeouts: { connectMs: 500, headersMs: 2000, totalMs: 2000 },
            approve: ['echo'],
          },
        ],
      },
    });
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    services = openAdminServices(db, config);
    const bootstrap = (await services.bootstrapTokens.rotate()).token;
    admin = await createAdminApp({ config, logger: pino({ level: 'silent' }), db });
    await admin.ready();
    const res = await admin.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: bootstrap }).toString(),
    });
    assert.equal(res.statusCode, 303, res.body);
    cookie = String(res.headers['set-cookie']).split(';')[0] as string;
  });
  after(async () => {
    await admin.close();
    await db.close();
    await upstream.close();
    await backend.close();
  });

  const get = (url: string) => admin.inject({ method: 'GET', url, headers: { cookie } });

  test('the admin tool list shows upstream tools with their backend and upstream name', async () => {
    const page = await get('/portal/admin/tools');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /href="\/portal\/admin\/tools\/notes_echo"/);
    assert.match(page.body, /notes\s*<div class="muted">MCP: <code>echo<\/code><\/div>/);
    assert.match(
      page.body,
      /href="\/portal\/admin\/tools\/getPayment"/,
      'beside the OpenAPI tools',
    );
  });

  test("a tool's admin page names the upstream tool; the developer catalogue offers approved ones", async () => {
    const detail = await get('/portal/admin/tools/notes_echo');
    assert.equal(detail.statusCode, 200);
    assert.match(detail.body, /<dt>Upstream tool<\/dt>\s*<dd>\s*<code\s*>echo<\/code/);
    const offered = await get('/portal/catalogue/tools/notes_echo');
    assert.equal(offered.statusCode, 200);
    assert.match(offered.body, /notes \(an MCP server; its tool <code>echo<\/code>\)/);
    // approve: ['echo'] (the upstream name): add is not approved, so not offered.
    assert.equal((await get('/portal/catalogue/tools/notes_add')).statusCode, 404);
  });

  test('the admin API approves an upstream tool like any other (stored, pinned)', async () => {
    const updated = await services.tools.update(ADMIN, 'notes_add', { approval: 'approved' });
    assert.equal(updated.approval.state, 'approved');
    assert.equal(updated.upstreamTool, 'add');
    assert.match(updated.definition.pinned?.hash ?? '', /^[0-9a-f]{64}$/);
    assert.equal((await get('/portal/catalogue/tools/notes_add')).statusCode, 200);
  });
});
