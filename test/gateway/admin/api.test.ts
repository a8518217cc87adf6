// The admin API end to end in process: a developer (user token) requests access, an admin (bootstrap
// token) approves, the developer collects the keys once, and a gateway built on the same database accepts
// the key on a real tools/call; the rejected path provisions nothing; developers cannot see each other's
// requests; validation errors name the field; cookies never authenticate.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import pino from 'pino';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { createJwtVerifier } from '../../../src/gateway/auth/jwt/verify.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import type { AdminRouteModule } from '../../../src/gateway/admin/http/module.js';
import { actorOf } from '../../../src/gateway/admin/http/module.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import { fixtureBackendConfig, MCP_HEADERS } from '../support/gateway.js';
import { testConfig } from './support.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'toolgate-admin';
const BASE = '/admin/api/v1';

describe('admin API', () => {
  let db: Database;
  let services: AdminServices;
  let admin: FastifyInstance;
  let gateway: FastifyInstance;
  let backend: FixtureBackend;
  let privateKey: CryptoKey;
  let bootstrap: string;

  const token = (sub: string, roles: string[] = []) =>
    new SignJWT({ roles, email: `${sub}@example.com` })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    path: string,
    bearer: string | null,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const reply = await admin.inject({
      method,
      url: `${BASE}${path}`,
      headers: { ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }), ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return {
      status: reply.statusCode,
      type: reply.headers['content-type'],
      body: reply.json() as Record<string, unknown> & {
        errors?: { field: string; message: string }[];
      },
    };
  };

  before(async () => {
    backend = await startFixtureBackend();
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    const config = testConfig({
      gateway: {
        backends: [fixtureBackendConfig(backend.baseUrl)],
        auth: { devIdentityProvider: { enabled: false } },
      },
    });
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    services = openAdminServices(db, config);
    bootstrap = (await services.bootstrapTokens.rotate()).token;
    const probe: AdminRouteModule = {
      name: 'probe',
      plugin: async (app) => {
        app.get('/probe', async (request) => ({ seenBy: actorOf(request).subject }));
      },
      openApiPaths: { '/probe': { get: { summary: 'extension probe', responses: {} } } },
    };
    admin = await createAdminApp({
      config,
      logger: pino({ level: 'silent' }),
      db,
      services,
      verifier: createJwtVerifier({ issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk }] }),
      extraRoutes: [probe],
    });
    gateway = await createGateway({ config, logger: pino({ level: 'silent' }), stores: { db } });
  });
  after(async () => {
    await admin.close();
    await gateway.close();
    await db.close();
    await backend.close();
  });

  test('authentication: bootstrap token, user tokens with and without the admin role, nothing else', async () => {
    assert.deepEqual((await call('GET', '/me', bootstrap)).body, {
      role: 'admin',
      subject: 'bootstrap-admin',
      via: 'bootstrap-token',
    });
    assert.equal(
      (await call('GET', '/me', await token('carol', ['toolgate-admin']))).body.role,
      'admin',
    );
    assert.equal((await call('GET', '/me', await token('alice'))).body.role, 'developer');
    const none = await call('GET', '/me', null);
    assert.equal(none.status, 401);
    assert.match(String(none.type), /^application\/problem\+json/);
    assert.equal((await call('GET', '/me', 'tga_wrong-token-000000000000000000000')).status, 401);
    // A browser's ambient cookie is never a credential for the API.
    const cookie = await call(
      'POST',
      '/access-requests',
      null,
      {},
      { cookie: `session=${bootstrap}` },
    );
    assert.equal(cookie.status, 401);
    assert.equal(
      (await call('GET', '/probe', await token('alice'))).body.seenBy,
      'alice',
      'extensions get request.actor',
    );
  });

  test('request → approve → collect once → the key works at the gateway; the rejected request has nothing', async () => {
    const alice = await token('alice');
    const created = await call('POST', '/access-requests', alice, {
      application: 'alice-agent',
      owner: { name: 'Alice', email: 'alice@example.com' },
      tools: 'all',
      environments: ['development', 'production'],
      justification: 'support bot',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.status, 'pending');
    const id = String(created.body.id);

    assert.equal((await call('POST', `/access-requests/${id}/approve`, alice, {})).status, 403);
    const approved = await call('POST', `/access-requests/${id}/approve`, bootstrap, {
      rateLimitPerMinute: 60,
    });
    assert.equal(approved.status, 200);
    assert.equal(approved.body.status, 'approved');

    const keys = await call('POST', `/access-requests/${id}/keys`, alice);
    assert.equal(keys.status, 200);
    const subs = keys.body.subscriptions as {
      environment: string;
      primaryKey: string;
      mcpServers: Record<string, Record<string, { headers: Record<string, string> }>>;
    }[];
    assert.deepEqual(
      subs.map((s) => s.environment),
      ['development', 'production'],
    );
    const dev = subs[0];
    assert.ok(dev);
    assert.equal(
      dev.mcpServers.mcpServers?.['toolgate-development']?.headers['Ocp-Apim-Subscription-Key'],
      dev.primaryKey,
    );
    const again = await call('POST', `/access-requests/${id}/keys`, alice);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'KEYS_ALREADY_COLLECTED');

    const mcp = await gateway.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        ...MCP_HEADERS,
        'mcp-protocol-version': '2025-11-25',
        'ocp-apim-subscription-key': dev.primaryKey,
      },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'test_simple_text', arguments: {} },
      },
    });
    assert.equal(mcp.statusCode, 200, mcp.body);
    const answer = mcp.json() as {
      error?: unknown;
      result?: { isError?: boolean; content: unknown[] };
    };
    assert.equal(answer.error, undefined);
    assert.notEqual(answer.result?.isError, true);
    assert.ok((answer.result?.content.length ?? 0) > 0);

    // The application view masks the keys and shows their age.
    const apps = await call('GET', '/applications', alice);
    const appId = (apps.body.applications as { id: string }[])[0]?.id;
    const detail = await call('GET', `/applications/${appId}`, alice);
    const keyViews = (
      detail.body.subscriptions as { keys: { masked: string; rotationDue: string }[] }[]
    ).flatMap((s) => s.keys);
    assert.equal(keyViews.length, 4);
    assert.ok(keyViews.some((k) => k.masked === `tgk_…${dev.primaryKey.slice(-4)}`));
    assert.ok(!JSON.stringify(detail.body).includes(dev.primaryKey));

    const bob = await token('bob');
    const bobs = await call('POST', '/access-requests', bob, {
      application: 'bob-agent',
      owner: { name: 'Bob', email: 'bob@example.com' },
      tools: ['test_simple_text'],
      environments: ['development'],
      justification: 'please',
    });
    const rejected = await call(
      'POST',
      `/access-requests/${String(bobs.body.id)}/reject`,
      bootstrap,
      { reason: 'not needed' },
    );
    assert.equal(rejected.body.status, 'rejected');
    assert.deepEqual(rejected.body.subscriptionIds, []);
    assert.equal(
      (await call('POST', `/access-requests/${String(bobs.body.id)}/keys`, bob)).body.code,
      'REQUEST_NOT_APPROVED',
    );
    assert.deepEqual((await call('GET', '/subscriptions', bob)).body.subscriptions, []);

    // Developers see only their own requests.
    const visible = (await call('GET', '/access-requests', bob)).body.accessRequests as {
      requester: string;
    }[];
    assert.deepEqual(
      visible.map((r) => r.requester),
      ['bob'],
    );
    assert.equal((await call('GET', `/access-requests/${id}`, bob)).status, 404);
    assert.equal(
      (
        (await call('GET', '/access-requests?status=pending', bootstrap)).body
          .accessRequests as unknown[]
      ).length,
      0,
    );

    const audit = await call('GET', `/audit?target=access-request:${id}`, bootstrap);
    assert.deepEqual((audit.body.entries as { action: string }[]).map((e) => e.action).reverse(), [
      'access-request.create',
      'access-request.approve',
      'access-request.keys.collect',
    ]);
    assert.equal((await call('GET', '/audit', alice)).status, 403);
    assert.deepEqual((await call('GET', '/audit/verify', bootstrap)).body.ok, true);
    const exported = await admin.inject({
      url: `${BASE}/audit/export`,
      headers: { authorization: `Bearer ${bootstrap}` },
    });
    assert.match(String(exported.headers['content-type']), /^application\/jsonl/);
    assert.ok(
      exported.body
        .trim()
        .split('\n')
        .every((line) => typeof (JSON.parse(line) as { hash: string }).hash === 'string'),
    );
    assert.ok(!exported.body.includes(dev.primaryKey));
  });

  test('subscriptions: patch, suspend, resume, rotate shows the new key once', async () => {
    const [sub] = (await call('GET', '/subscriptions', bootstrap)).body.subscriptions as {
      id: string;
    }[];
    assert.ok(sub);
    const patched = await call('PATCH', `/subscriptions/${sub.id}`, bootstrap, {
      tools: ['test_simple_text'],
      rateLimitPerMinute: null,
    });
    assert.deepEqual(patched.body.tools, ['test_simple_text']);
    assert.equal(patched.body.rateLimitPerMinute, null);
    assert.equal(
      (await call('POST', `/subscriptions/${sub.id}/suspend`, bootstrap)).body.status,
      'suspended',
    );
    assert.equal(
      (await call('POST', `/subscriptions/${sub.id}/resume`, bootstrap)).body.status,
      'active',
    );
    const rotated = await call('POST', `/subscriptions/${sub.id}/keys/secondary/rotate`, bootstrap);
    assert.match(String(rotated.body.key), /^tgk_/);
    assert.equal(
      (await call('POST', `/subscriptions/${sub.id}/keys/tertiary/rotate`, bootstrap)).body
        .errors?.[0]?.field,
      'slot',
    );
    assert.equal((await call('POST', `/subscriptions/${sub.id}/explode`, bootstrap)).status, 404);
    assert.equal((await call('POST', '/subscriptions/sub_missing/suspend', bootstrap)).status, 404);
  });

  test('validation errors are 400 problems naming each field', async () => {
    const bad = await call('POST', '/access-requests', await token('alice'), {
      application: '',
      owner: { name: 'A', email: 'not-an-email' },
      tools: 'some',
      environments: ['moon'],
      extra: 1,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'VALIDATION_FAILED');
    const fields = (bad.body.errors ?? []).map((e) => e.field).sort();
    assert.deepEqual(fields, [
      'application',
      'environments.0',
      'extra',
      'justification',
      'owner.email',
      'tools',
    ]);
    const env = bad.body.errors?.find((e) => e.field === 'environments.0');
    assert.match(env?.message ?? '', /one of "development", "staging", "production"/);
    const policy = await call('PUT', '/key-policy', bootstrap, { rotationDays: 10, warnDays: 10 });
    assert.equal(policy.status, 400);
    assert.equal(policy.body.errors?.[0]?.field, 'warnDays');
    const notJson = await admin.inject({
      method: 'POST',
      url: `${BASE}/access-requests`,
      headers: { authorization: `Bearer ${bootstrap}`, 'content-type': 'application/json' },
      payload: '{"application":',
    });
    assert.equal(notJson.statusCode, 400);
    assert.equal((await call('GET', '/audit?limit=0', bootstrap)).body.errors?.[0]?.field, 'limit');
    assert.equal(
      (await call('GET', '/access-requests?status=maybe', bootstrap)).body.errors?.[0]?.field,
      'status',
    );
  });

  test('the OpenAPI 3.1 document describes every route, extensions included, without authentication', async () => {
    const reply = await admin.inject({ url: `${BASE}/openapi.json` });
    assert.equal(reply.statusCode, 200);
    const doc = reply.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    assert.equal(doc.openapi, '3.1.0');
    // A valid OpenAPI 3.1 document, as a client generator would check it.
    // (reply.json() is typed loosely by light-my-request: a fresh parse the validator may mutate.)
    await SwaggerParser.validate(reply.json());
    for (const [path, method] of [
      ['/me', 'get'],
      ['/access-requests', 'post'],
      ['/access-requests/{id}/keys', 'post'],
      ['/subscriptions/{id}/keys/{slot}/rotate', 'post'],
      ['/key-policy', 'put'],
      ['/audit/verify', 'get'],
      ['/probe', 'get'],
    ] as const)
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
  });
});
