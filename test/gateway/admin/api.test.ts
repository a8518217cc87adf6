// The admin API end to end in process: a developer (user token) requests access, an admin (bootstrap
// token) approves, the developer collects the keys once, and a gateway built on the same database accepts
// the key on a real tools/call; the rejected path provisions nothing; developers cannot see each other's
// requests; validation errors name the field; cookies never authenticate; the OpenAPI document is made
// from the routes that validate (every route documented, every documented request schema the one that
// validates).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import pino from 'pino';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { adminApiRoutes } from '../../../src/gateway/admin/routes/admin-api.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
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
        auth: {
          devIdentityProvider: { enabled: false },
          jwt: { issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk }] },
        },
      },
    });
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    services = openAdminServices(db, config);
    bootstrap = (await services.bootstrapTokens.rotate()).token;
    admin = await createAdminApp({ config, logger: pino({ level: 'silent' }), db });
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
      (await call('GET', '/me', await token('alice'))).body.subject,
      'alice',
      'routes get the authenticated actor',
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

  test('the OpenAPI 3.1 document describes every route, without authentication', async () => {
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
      ['/tools/{name}', 'patch'],
      ['/usage', 'get'],
    ] as const)
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
  });

  test('every route is documented, and every documented request schema is the one that validates', async () => {
    type Operation = {
      parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
      requestBody?: { required: boolean; content: Record<string, { schema: unknown }> };
    };
    const doc = (await admin.inject({ url: `${BASE}/openapi.json` })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    const routes = adminApiRoutes(services);
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(routes.map((r) => `${r.method} ${r.path}`).sort(), documented.sort());
    const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      const url = `${BASE}${route.path.replace(/\{([^}]+)\}/g, ':$1')}`;
      assert.ok(admin.hasRoute({ method: route.method, url }), `${name} is served`);
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      assert.ok(operation, name);
      assert.deepEqual(
        operation.requestBody?.content['application/json']?.schema,
        route.body === undefined ? undefined : json(route.body),
        `${name}: the documented body is the schema the route validates with`,
      );
      for (const [where, schema] of [
        ['path', route.params],
        ['query', route.query],
      ] as const) {
        const declared: unknown[] = Object.entries(schema?.properties ?? {}).map(
          ([key, property]) => {
            const { description: _description, ...rest } = json(property) as Record<
              string,
              unknown
            >;
            return [key, rest];
          },
        );
        const shown: unknown[] = (operation.parameters ?? [])
          .filter((p) => p.in === where)
          .map((p) => [p.name, p.schema]);
        assert.deepEqual(shown, declared, `${name}: ${where} parameters`);
      }
    }
    // A body of the wrong shape is refused by the route itself, naming the body, for every documented body.
    for (const route of routes.filter((r) => r.body !== undefined)) {
      const url = route.path.replace('{slot}', 'primary').replace(/\{[^}]+\}/g, 'x');
      const reply = await call(route.method, url, bootstrap, []);
      assert.equal(reply.status, 400, `${route.method} ${route.path}`);
      assert.equal(reply.body.code, 'VALIDATION_FAILED');
      assert.equal(reply.body.errors?.[0]?.field, '');
    }
  });

  test("a user token whose subject is the bootstrap admin's neither sees nor collects its requests", async () => {
    const requested = await call('POST', '/access-requests', bootstrap, {
      application: 'bootstrap-owned',
      owner: { name: 'Ops', email: 'ops@example.com' },
      tools: ['test_simple_text'],
      environments: ['staging'],
      justification: 'the bootstrap admin asks for itself',
    });
    assert.equal(requested.status, 201);
    const id = String(requested.body.id);
    assert.equal((await call('POST', `/access-requests/${id}/approve`, bootstrap, {})).status, 200);

    const impostor = await token('bootstrap-admin');
    const listed = await call('GET', '/access-requests', impostor);
    assert.equal(listed.status, 401);
    assert.match(String(listed.body.detail), /subject "bootstrap-admin" is reserved/);
    const collected = await call('POST', `/access-requests/${id}/keys`, impostor);
    assert.equal(collected.status, 401);
    assert.equal(collected.body.subscriptions, undefined);
    for (const reserved of ['system', 'cli:ops'])
      assert.equal((await call('GET', '/me', await token(reserved))).status, 401, reserved);
    // The bootstrap admin still collects its own keys.
    assert.equal((await call('POST', `/access-requests/${id}/keys`, bootstrap)).status, 200);
  });

  test('a request with two Authorization headers is refused, whichever comes first', async () => {
    await admin.listen({ port: 0, host: '127.0.0.1' });
    const { port } = admin.server.address() as AddressInfo;
    const raw = (first: string, second: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write(
          `GET ${BASE}/me HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
            `Authorization: Bearer ${first}\r\nAuthorization: Bearer ${second}\r\n` +
            'Connection: close\r\n\r\n',
        );
      });
    for (const [first, second] of [
      [bootstrap, 'tga_someone-elses-token-0000000000000'],
      ['tga_someone-elses-token-0000000000000', bootstrap],
    ] as const) {
      const answer = await raw(first, second);
      assert.match(answer, /^HTTP\/1\.1 401 /);
      assert.match(answer, /application\/problem\+json/);
      assert.match(answer, /more than one Authorization header/);
    }
  });
});
