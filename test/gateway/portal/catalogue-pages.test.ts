// Issue 27 on the real admin app (inject) with a real gateway listening on a loopback port, both on one
// SQLite database: the catalogue lists approved tools only (a revoked tool disappears), a tool's page
// shows its security class and example call; the request form picks from the catalogue, prefills the
// owner, and the server refuses names the catalogue lacks at the field `tools`; trap 5: a production key
// gets no client block (no gateway configured) while development gets the configured URL; Try it calls
// the gateway with the collected key (result shown), reports a user-scoped tool's refusal, and refuses
// a form without key or CSRF token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import pino from 'pino';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { fixtureBackendConfig } from '../support/gateway.js';
import { testConfig } from '../admin/support.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'toolgate-admin';

describe('developer catalogue, request form, trap 5 and Try it (issue 27)', () => {
  let db: Database;
  let services: AdminServices;
  let admin: FastifyInstance;
  let gateway: FastifyInstance;
  let backend: FixtureBackend;
  let privateKey: CryptoKey;
  let bootstrap: string;
  let gatewayMcpUrl: string;

  before(async () => {
    backend = await startFixtureBackend();
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    const base = {
      backends: [fixtureBackendConfig(backend.baseUrl)],
      products: { banking: ['fetchBankDetails', 'getMyAccountBalance'] },
      auth: {
        devIdentityProvider: { enabled: false },
        jwt: { issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk }] },
      },
    };
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    gateway = await createGateway({
      config: testConfig({ gateway: base }),
      logger: pino({ level: 'silent' }),
      stores: { db },
    });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    gatewayMcpUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}/mcp`;
    // The development gateway is the one listening; production has none configured (trap 5).
    const config = testConfig({
      gateway: base,
      admin: { mcpUrls: { development: gatewayMcpUrl } },
    });
    services = openAdminServices(db, config);
    bootstrap = (await services.bootstrapTokens.rotate()).token;
    admin = await createAdminApp({ config, logger: pino({ level: 'silent' }), db });
    await admin.ready();
  });
  after(async () => {
    await admin.close();
    await gateway.close();
    await db.close();
    await backend.close();
  });

  const userToken = (sub: string) =>
    new SignJWT({ email: `${sub}@example.com` })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);

  async function signIn(token: string): Promise<string> {
    const res = await admin.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token }).toString(),
    });
    assert.equal(res.statusCode, 303, res.body);
    return String(res.headers['set-cookie']).split(';')[0] as string;
  }

  const get = (cookie: string, url: string) =>
    admin.inject({ method: 'GET', url, headers: { cookie } });

  async function post(
    cookie: string,
    url: string,
    fields: Record<string, string | string[]>,
    from: string,
    csrf = true,
  ) {
    const page = await get(cookie, from);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(token, `no CSRF token on ${from}`);
    const body = new URLSearchParams(csrf ? { _csrf: token } : {});
    for (const [k, v] of Object.entries(fields))
      for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return admin.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  }

  const REQUEST = {
    application: 'bank-agent',
    'owner.name': 'Gina',
    'owner.email': 'gina@example.com',
    environments: ['development', 'production'],
    justification: 'Looks up banks.',
  };

  test('the catalogue lists approved tools with security class; a revoked tool is not offered', async () => {
    const dev = await signIn(await userToken('gina'));
    const page = await get(dev, '/portal/catalogue');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /href="\/portal\/catalogue\/tools\/fetchBankDetails"/);
    assert.match(page.body, /user-scoped/, 'the security class as the docs name it');
    assert.match(page.body, /banking/, 'the product is listed');

    const root = await signIn(bootstrap);
    await services.tools.update(
      { role: 'admin', subject: 'admin-1', via: 'bearer-token' },
      'test_error_handling',
      { approval: 'revoked' },
    );
    const after = await get(dev, '/portal/catalogue');
    assert.doesNotMatch(after.body, /test_error_handling/, 'a revoked tool is not offered');
    assert.equal((await get(dev, '/portal/catalogue/tools/test_error_handling')).statusCode, 404);
    assert.ok(root);

    const detail = await get(dev, '/portal/catalogue/tools/fetchBankDetails');
    assert.equal(detail.statusCode, 200);
    assert.match(detail.body, /id="example-call"/);
    assert.match(detail.body, /&quot;method&quot;: &quot;tools\/call&quot;/);
    assert.match(
      detail.body,
      /&quot;iban&quot;: &quot;&lt;iban&gt;&quot;/,
      'the required body field',
    );
    assert.match(detail.body, /href="\/portal\/catalogue\/tools\/fetchBankDetails\/try"/);
  });

  test('the request form picks from the catalogue, prefills the owner, and the server refuses unknown names', async () => {
    const dev = await signIn(await userToken('gina'));
    const form = await get(dev, '/portal/request?tools=fetchBankDetails&tools=nope');
    assert.match(form.body, /id="f-owner\.email"[^>]*value="gina@example\.com"/, 'owner prefilled');
    assert.match(
      form.body,
      /id="tool-fetchBankDetails"\s+name="tools"\s+value="fetchBankDetails"\s+checked/,
    );
    assert.match(form.body, /value="product:banking"/);
    assert.doesNotMatch(form.body, /value="nope"/);

    const unknown = await post(
      dev,
      '/portal/request',
      {
        ...REQUEST,
        toolsMode: 'some',
        tools: ['fetchBankDetails', 'test_error_handling', 'product:nope'],
      },
      '/portal/request',
    );
    assert.equal(unknown.statusCode, 400);
    assert.match(
      unknown.body,
      /id="f-tools-error"[^>]*>Not in the catalogue: test_error_handling, product:nope/,
    );
    assert.equal(
      (await services.accessRequests.list({ role: 'admin', subject: 'a', via: 'bearer-token' }))
        .length,
      0,
    );

    const none = await post(
      dev,
      '/portal/request',
      { ...REQUEST, toolsMode: 'some' },
      '/portal/request',
    );
    assert.equal(none.statusCode, 400);
    assert.match(none.body, /id="f-tools-error"/);

    const ok = await post(
      dev,
      '/portal/request',
      { ...REQUEST, toolsMode: 'some', tools: ['fetchBankDetails', 'product:banking'] },
      '/portal/request',
    );
    assert.equal(ok.statusCode, 303, ok.body);
    const [request] = await services.accessRequests.list({
      role: 'admin',
      subject: 'a',
      via: 'bearer-token',
    });
    assert.deepEqual(request?.tools, ['fetchBankDetails', 'product:banking']);
  });

  test('trap 5 and Try it: the development key gets the configured gateway, production none; Try it calls the gateway', async () => {
    const dev = await signIn(await userToken('gina'));
    const adminCookie = await signIn(bootstrap);
    const [request] = await services.accessRequests.list({
      role: 'admin',
      subject: 'a',
      via: 'bearer-token',
    });
    assert.ok(request);
    const approved = await post(
      adminCookie,
      `/portal/admin/requests/${request.id}/approve`,
      {},
      '/portal/admin/requests',
    );
    assert.equal(approved.statusCode, 303, approved.body);
    const collected = await post(
      dev,
      `/portal/requests/${request.id}/keys`,
      {},
      '/portal/applications',
    );
    assert.equal(collected.statusCode, 200, collected.body);
    const key = /id="key-development-primary"[^>]*>([^<]+)</.exec(collected.body)?.[1]?.trim();
    assert.ok(key);
    const devBlock = /id="client-development"[^>]*>([^<]+)</.exec(collected.body)?.[1] ?? '';
    assert.ok(
      devBlock.includes(gatewayMcpUrl),
      'the development block names the configured gateway',
    );
    const production =
      /<p class="alert" id="client-production"[^>]*>([\s\S]*?)<\/p>/.exec(collected.body)?.[1] ??
      '';
    assert.match(production, /No gateway is configured for production/);
    assert.match(production, /admin\.mcpUrls\.production/);
    assert.doesNotMatch(
      collected.body.split('id="env-production"')[1] ?? '',
      /127\.0\.0\.1/,
      'no local URL for a production key',
    );

    const tryPage = await get(dev, '/portal/catalogue/tools/fetchBankDetails/try');
    assert.match(tryPage.body, /type="password"\s+id="f-key"\s+name="key"/);
    assert.match(tryPage.body, /No gateway is configured for staging,\s+production/);
    assert.match(tryPage.body, /id="f-arg_body_iban"/);

    const call = await post(
      dev,
      '/portal/catalogue/tools/fetchBankDetails/try',
      { environment: 'development', key, 'arg/body/iban': 'DE89370400440532013000' },
      '/portal/catalogue/tools/fetchBankDetails/try',
    );
    assert.equal(call.statusCode, 200, call.body);
    assert.match(call.body, /isError: false/);
    assert.match(call.body, /Fixture Bank/, 'the gateway’s answer is shown');
    assert.ok(!call.body.includes(key), 'the key is not echoed back');

    const user = await post(
      dev,
      '/portal/catalogue/tools/getMyAccountBalance/try',
      { environment: 'development', key },
      '/portal/catalogue/tools/getMyAccountBalance/try',
    );
    assert.equal(user.statusCode, 200, user.body);
    assert.match(
      user.body,
      /The gateway refused/,
      'a user-scoped tool without a user token is refused by the gateway',
    );

    const noKey = await post(
      dev,
      '/portal/catalogue/tools/fetchBankDetails/try',
      { environment: 'production', 'arg/body/iban': 'x' },
      '/portal/catalogue/tools/fetchBankDetails/try',
    );
    assert.equal(noKey.statusCode, 400);
    assert.match(noKey.body, /id="f-key-error"/);
    assert.match(
      noKey.body,
      /No gateway is configured for production \(admin\.mcpUrls\.production\)/,
    );

    const forged = await post(
      dev,
      '/portal/catalogue/tools/fetchBankDetails/try',
      { environment: 'development', key },
      '/portal/catalogue/tools/fetchBankDetails/try',
      false,
    );
    assert.equal(forged.statusCode, 403, 'no CSRF token, no call');
  });
});
