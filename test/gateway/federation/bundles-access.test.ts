// Subscriptions limited to tool bundles (issue 28: "Subscriptions can be limited to bundles; the portal's
// access request can ask for a bundle"): the portal's request form asks for a bundle, approval provisions a
// subscription limited to it, and the collected key works at that bundle's endpoint only; the admin API
// changes the limit; `toolgate keys create --bundles`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { loadConfig } from '../../../src/config/load.js';
import type { FrozenConfig } from '../../../src/config/schema.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices } from '../../../src/gateway/admin/services.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { fixtureBackendConfig, MCP_HEADERS } from '../support/gateway.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'toolgate-admin';

describe('subscriptions limited to tool bundles: portal request → approval → key at the bundle only', () => {
  let backend: FixtureBackend;
  let db: Database;
  let config: FrozenConfig;
  let admin: FastifyInstance;
  let gateway: FastifyInstance;
  let signingKey: CryptoKey;
  let bootstrap: string;

  before(async () => {
    backend = await startFixtureBackend();
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    signingKey = privateKey;
    config = loadConfig({
      env: {},
      overrides: {
        dataDir: mkdtempSync(join(tmpdir(), 'toolgate-bundles-access-')),
        logging: { level: 'silent' },
        gateway: {
          backends: [fixtureBackendConfig(backend.baseUrl)],
          bundles: {
            payments: {
              title: 'Payments team',
              description: 'Create and read payments',
              tools: ['createPayment', 'getPayment', 'test_simple_text'],
            },
            support: { tools: ['fetchBankDetails'] },
          },
          auth: {
            devIdentityProvider: { enabled: false },
            subscriptionKeys: { pepper: 'pepper-for-bundle-tests-0123' },
            jwt: {
              issuer: ISSUER,
              audience: AUDIENCE,
              staticKeys: [{ kid: 'k1', alg: 'ES256', jwk: { ...(await exportJWK(publicKey)) } }],
            },
            settingsRefreshMs: 300_000,
          },
        },
      },
    });
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    bootstrap = (await openAdminServices(db, config).bootstrapTokens.rotate()).token;
    admin = await createAdminApp({ config, logger: pino({ level: 'silent' }), db });
    await admin.ready();
    gateway = await createGateway({ config, logger: pino({ level: 'silent' }), stores: { db } });
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
      .sign(signingKey);

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
  ) {
    const page = await get(cookie, from);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(csrf, `no CSRF token on ${from}`);
    const body = new URLSearchParams({ _csrf: csrf });
    for (const [k, v] of Object.entries(fields))
      for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return admin.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  }
  const mcp = (url: string, key: string, method = 'tools/list', params: unknown = {}) =>
    gateway.inject({
      method: 'POST',
      url,
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-11-25',
        'ocp-apim-subscription-key': key,
      },
      payload: { jsonrpc: '2.0', id: 1, method, params },
    });
  const api = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown) =>
    admin.inject({
      method,
      url: `/admin/api/v1${path}`,
      headers: { authorization: `Bearer ${bootstrap}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  test('the portal form asks for a bundle; approved, the key works at /mcp/<bundle> only', async () => {
    const dev = await signIn(await userToken('dana'));
    const adminCookie = await signIn(bootstrap);
    const form = await get(dev, '/portal/request?bundle=payments');
    assert.match(form.body, /<legend>Tool bundle<\/legend>/);
    assert.match(form.body, /id="bundle-payments"\s+name="bundle"\s+value="payments"\s+checked/);
    assert.match(form.body, /Payments team/);

    const fields = {
      application: 'payments-agent',
      'owner.name': 'Dana',
      'owner.email': 'dana@example.com',
      toolsMode: 'all',
      environments: 'development',
      justification: 'payments bot',
    };
    const unknown = await post(
      dev,
      '/portal/request',
      { ...fields, bundle: 'nope' },
      '/portal/request',
    );
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.body, /id="f-bundle-error"[^>]*>[^<]*No tool bundle is named nope/);

    const sent = await post(
      dev,
      '/portal/request',
      { ...fields, bundle: 'payments' },
      '/portal/request',
    );
    assert.equal(sent.statusCode, 303, sent.body);
    const pending = await get(adminCookie, '/portal/admin/requests');
    assert.match(pending.body, /limited to the tool bundle payments/);
    const id = /action="\/portal\/admin\/requests\/([^/]+)\/approve"/.exec(pending.body)?.[1];
    assert.ok(id);
    const approved = await post(
      adminCookie,
      `/portal/admin/requests/${id}/approve`,
      {},
      '/portal/admin/requests',
    );
    assert.equal(approved.statusCode, 303, approved.body);

    const collected = await post(dev, `/portal/requests/${id}/keys`, {}, '/portal/applications');
    assert.equal(collected.statusCode, 200, collected.body);
    const key = /id="key-development-primary"[^>]*>([^<]+)</.exec(collected.body)?.[1];
    assert.ok(key, 'the primary key is shown once');
    // The client block names the bundle's endpoint: the plain one would refuse this key.
    assert.match(collected.body, /http:\/\/127\.0\.0\.1:8080\/mcp\/payments/);

    const atBundle = await mcp('/mcp/payments', key);
    assert.equal(atBundle.statusCode, 200, atBundle.body);
    assert.deepEqual(
      (atBundle.json().result.tools as { name: string }[]).map((t) => t.name).sort(),
      ['createPayment', 'getPayment', 'test_simple_text'],
    );
    const called = await mcp('/mcp/payments', key, 'tools/call', {
      name: 'test_simple_text',
      arguments: {},
    });
    assert.ok(called.json().result, called.body);
    const plain = await mcp('/mcp', key);
    assert.equal(plain.statusCode, 403);
    assert.equal(plain.json().error.data.reason, 'SUBSCRIPTION_BUNDLE_LIMITED');
    assert.deepEqual(plain.json().error.data.bundles, ['payments']);
    assert.equal((await mcp('/mcp/support', key)).statusCode, 403);

    // The request and its subscription record the bundle (admin API).
    const request = await api('GET', `/access-requests/${id}`);
    assert.deepEqual(request.json().bundles, ['payments']);
    const subscriptionId = (request.json().subscriptionIds as string[])[0];
    const subscription = await api('GET', `/subscriptions/${subscriptionId}`);
    assert.deepEqual(subscription.json().bundles, ['payments']);
  });

  test('admin API: PATCH /subscriptions/{id} sets, checks and lifts the bundle limit', async () => {
    const created = await openAdminServices(db, config).provisioning.create(
      { role: 'admin', subject: 'admin-1', issuer: ISSUER, via: 'bearer-token' },
      { application: 'ops-agent', environment: 'development' },
    );
    const id = created.subscription.id;
    const key = created.primaryKey;
    assert.equal((await mcp('/mcp', key)).statusCode, 200, 'not limited: every endpoint');

    const unknown = await api('PATCH', `/subscriptions/${id}`, { bundles: ['nope'] });
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().code, 'VALIDATION_FAILED');
    assert.match(
      unknown.json().detail ?? JSON.stringify(unknown.json()),
      /no tool bundle is named nope \(configured: payments, support\)/,
    );
    const empty = await api('PATCH', `/subscriptions/${id}`, { bundles: [] });
    assert.equal(empty.statusCode, 400, 'an empty list would lock the subscription out: refused');

    const limited = await api('PATCH', `/subscriptions/${id}`, { bundles: ['support'] });
    assert.equal(limited.statusCode, 200, limited.body);
    assert.deepEqual(limited.json().bundles, ['support']);
    // The gateway caches a key's subscription for cacheTtlMs; a fresh gateway reads the change at once.
    const fresh = await createGateway({
      config,
      logger: pino({ level: 'silent' }),
      stores: { db },
    });
    try {
      const send = (url: string) =>
        fresh.inject({
          method: 'POST',
          url,
          headers: {
            ...MCP_HEADERS,
            'mcp-protocol-version': '2025-11-25',
            'ocp-apim-subscription-key': key,
          },
          payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        });
      assert.equal((await send('/mcp')).statusCode, 403);
      assert.equal((await send('/mcp/support')).statusCode, 200);
      const lifted = await api('PATCH', `/subscriptions/${id}`, { bundles: null });
      assert.equal(lifted.json().bundles, null);
    } finally {
      await fresh.close();
    }
    // Every change is audited with the limit before and after.
    const audit = await api('GET', `/audit?target=subscription:${id}&action=subscription.update`);
    assert.equal(audit.statusCode, 200, audit.body);
    assert.match(audit.body, /"bundles":\["support"\]/);
  });
});
