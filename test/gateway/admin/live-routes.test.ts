// The tool, identity-provider and usage routes through the admin app (createAdminApp with its bearer
// authentication and problem+json rendering): request validation, clear errors, admin-only changes, the
// OpenAPI document, and the audit log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../src/config/load.js';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { SubscriptionStore } from '../../../src/gateway/auth/subscriptions/store.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { UsageStore, minuteOf } from '../../../src/gateway/usage/store.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import { makeKey, mint, type SigningKey } from '../auth/helpers.js';
import { fixtureBackendConfig } from '../support/gateway.js';

const ADMIN_TOKEN = 'tga_live-routes-bootstrap-token-0123456789';
const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'http://127.0.0.1:8082/admin';
const BASE = '/admin/api/v1';

describe('tool, identity-provider and usage routes', () => {
  let db: Database;
  let app: FastifyInstance;
  let userKey: SigningKey;
  let developerToken: string;

  before(async () => {
    userKey = await makeKey('user-1', 'ES256');
    const config = loadConfig({
      env: {},
      overrides: {
        dataDir: mkdtempSync(join(tmpdir(), 'toolgate-live-routes-')),
        logging: { level: 'warn' },
        admin: { bootstrapToken: ADMIN_TOKEN },
        gateway: {
          backends: [fixtureBackendConfig('http://127.0.0.1:9')],
          auth: {
            devIdentityProvider: { enabled: false },
            jwt: { issuer: ISSUER, audience: AUDIENCE, staticKeys: [{ jwk: userKey.publicJwk }] },
            // The admin listener's own sign-in keeps the configured provider while this suite saves
            // and reverts other settings (it would apply them within this interval).
            settingsRefreshMs: 300_000,
          },
        },
      },
    });
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
    app = await createAdminApp({ config, logger, db });
    const now = Math.floor(Date.now() / 1000);
    developerToken = await mint(userKey, {
      iss: ISSUER,
      aud: AUDIENCE,
      sub: 'dev-carol',
      iat: now,
      exp: now + 600,
    });
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    body?: unknown,
    token = ADMIN_TOKEN,
  ) => {
    const reply = await app.inject({
      method,
      url: `${BASE}${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return {
      status: reply.statusCode,
      type: String(reply.headers['content-type'] ?? ''),
      body: reply.json() as Record<string, unknown> & {
        code?: string;
        errors?: { field: string; message: string }[];
      },
    };
  };

  test('the OpenAPI document describes every tool, identity-provider and usage route', async () => {
    const { body } = await call('GET', '/openapi.json');
    const paths = body.paths as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(paths['/tools/{name}'] ?? {}).sort(), ['get', 'patch']);
    assert.deepEqual(Object.keys(paths['/identity-provider'] ?? {}).sort(), ['get', 'put']);
    for (const path of [
      '/tools',
      '/identity-provider/versions',
      '/identity-provider/validate',
      '/identity-provider/revert',
      '/usage',
    ])
      assert.ok(paths[path], path);
  });

  test('tools: list, patch, validation and refusals as problem+json', async () => {
    const listed = await call('GET', '/tools');
    assert.equal(listed.status, 200);
    const tools = listed.body.tools as { name: string; approval: { state: string } }[];
    assert.ok(tools.some((t) => t.name === 'getPayment' && t.approval.state === 'approved'));

    // Issue 25, pinned tool definitions: each tool carries its definition's hash and pin state.
    const get = tools.find((t) => t.name === 'getPayment') as unknown as {
      definition: { hash: string; heldBack: boolean; changes: unknown[] };
    };
    assert.match(get.definition.hash, /^[0-9a-f]{64}$/);
    assert.equal(get.definition.heldBack, false);
    assert.deepEqual(get.definition.changes, []);
    const approved = await call('PATCH', '/tools/getPayment', { approval: 'approved' });
    assert.equal(approved.status, 200);
    assert.deepEqual(
      (approved.body.definition as { pinned: { hash: string; by: string } }).pinned.hash,
      get.definition.hash,
      'approving pins the current definition',
    );

    const patched = await call('PATCH', '/tools/getPayment', {
      title: 'Read a payment',
      approval: 'revoked',
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.title, 'Read a payment');
    assert.deepEqual(patched.body.approval, {
      state: 'revoked',
      source: 'stored',
      updatedAt: (patched.body.approval as { updatedAt: string }).updatedAt,
      updatedBy: 'bootstrap-admin',
    });

    const invalid = await call('PATCH', '/tools/getPayment', {
      securityClass: 'everyone',
      colour: 1,
    });
    assert.equal(invalid.status, 400);
    assert.match(invalid.type, /application\/problem\+json/);
    assert.equal(invalid.body.code, 'VALIDATION_FAILED');
    assert.deepEqual(invalid.body.errors?.map((e) => e.field).sort(), ['colour', 'securityClass']);

    const unappliable = await call('PATCH', '/tools/getPayment', { hidden: { nope: 1 } });
    assert.equal(unappliable.status, 422);
    assert.equal(unappliable.body.code, 'TOOL_SETTINGS_INVALID');
    assert.equal(unappliable.body.errors?.[0]?.field, 'hidden.nope');

    assert.equal((await call('PATCH', '/tools/noSuchTool', { title: 'x' })).status, 404);
    const forbidden = await call('PATCH', '/tools/getPayment', { title: 'x' }, developerToken);
    assert.equal(forbidden.status, 403);
    assert.equal(
      (await call('GET', '/tools', undefined, 'tga_wrong-token-000000000000')).status,
      401,
    );

    const audit = await call('GET', '/audit?action=tool.update');
    const entries = audit.body.entries as { action: string; target: { id: string } }[];
    // The approval and the title change; refused changes leave none.
    assert.equal(entries.length, 2, 'refused changes leave no audit entry');
    assert.deepEqual(
      entries.map((e) => e.target.id),
      ['getPayment', 'getPayment'],
    );
    const pins = await call('GET', '/audit?action=tool.pin');
    assert.equal((pins.body.entries as unknown[]).length, 1, 'the approval pinned the definition');
  });

  test('identity provider: validate, save (422 when invalid), versions, revert', async () => {
    const newKey = await makeKey('new-1', 'RS256');
    const settings = {
      mode: 'conditional',
      issuer: 'https://new-idp.example.test',
      audience: 'http://127.0.0.1:8080/mcp',
      jwks: { keys: [newKey.publicJwk] },
      forwardClaims: [{ claim: 'email', header: 'X-User-Email' }],
    };
    const validated = await call('POST', '/identity-provider/validate', { settings });
    assert.equal(validated.status, 200);
    assert.equal(validated.body.ok, true);
    assert.deepEqual(
      (validated.body.keys as { kid: string; kty: string }[]).map((k) => [k.kid, k.kty]),
      [['new-1', 'RSA']],
    );

    const refused = await call('PUT', '/identity-provider', {
      settings: {
        ...settings,
        mode: 'sometimes',
        forwardClaims: [{ claim: 'email', header: 'a b' }],
      },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'IDP_SETTINGS_INVALID');
    assert.deepEqual(refused.body.errors?.map((e) => e.field).sort(), [
      'settings.forwardClaims.0.header',
      'settings.mode',
    ]);
    assert.equal((await call('PUT', '/identity-provider', { sampleToken: 'x' })).status, 400);
    // Validation answers settings that break their schema with the report, every problem by field.
    const shape = await call('POST', '/identity-provider/validate', {
      settings: {
        mode: 'sometimes',
        issuer: '',
        audience: AUDIENCE,
        forwardClaims: [{ claim: 'email', header: 'bad header' }],
      },
    });
    assert.equal(shape.status, 200);
    assert.equal(shape.body.ok, false);
    assert.deepEqual((shape.body.problems as { field: string }[]).map((p) => p.field).sort(), [
      'settings.forwardClaims.0.header',
      'settings.issuer',
      'settings.mode',
    ]);
    assert.equal(
      (await call('POST', '/identity-provider/validate', { settings }, developerToken)).status,
      403,
    );
    assert.equal(
      (
        await call(
          'POST',
          '/identity-provider/validate',
          { settings: { mode: 'x' } },
          developerToken,
        )
      ).status,
      403,
      'developers learn nothing from a refused body either',
    );

    const configured = await call('GET', '/identity-provider');
    assert.equal(configured.body.source, 'configuration');
    assert.equal((configured.body.settings as { issuer: string }).issuer, ISSUER);
    const saved = await call('PUT', '/identity-provider', { settings });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.version, 1);
    const current = await call('GET', '/identity-provider');
    assert.equal(current.body.source, 'stored');
    assert.equal((current.body.settings as { issuer: string }).issuer, settings.issuer);

    const reverted = await call('POST', '/identity-provider/revert');
    assert.equal(reverted.status, 200);
    assert.deepEqual([reverted.body.version, reverted.body.revertedFrom], [2, 0]);
    const versions = await call('GET', '/identity-provider/versions');
    assert.deepEqual(
      (versions.body.versions as { version: number }[]).map((v) => v.version),
      [2, 1],
    );
    assert.equal((await call('GET', '/identity-provider', undefined, developerToken)).status, 403);
    const audit = await call('GET', '/audit');
    const actions = (audit.body.entries as { action: string }[])
      .map((e) => e.action)
      .filter((a) => a.startsWith('identity-provider.'))
      .sort();
    assert.deepEqual(actions, ['identity-provider.revert', 'identity-provider.update']);
  });

  test('usage: window validated, rows per subscription and tool with key age, developers see only their own', async () => {
    const issued = await new SubscriptionStore(db).create({
      application: 'usage-app',
      environment: 'development',
    });
    const id = issued.subscription.id;
    await new UsageStore(db).add([
      {
        minute: minuteOf(Date.now()),
        subscriptionId: id,
        tool: 'getPayment',
        requests: 3,
        quotaRefusals: 1,
        errors: 1,
        latencyCount: 3,
        // Latencies of 6, 8 and 10 ms.
        latencySumUs: 24_000,
        buckets: [3, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        latencyMinUs: 6_000,
        latencyMaxUs: 10_000,
      },
    ]);
    const bad = await call('GET', '/usage?window=week');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors?.[0]?.field, 'window');
    const hour = await call('GET', '/usage?window=hour&tool=getPayment');
    assert.equal(hour.status, 200);
    assert.deepEqual(hour.body.rows, [
      {
        subscriptionId: id,
        tool: 'getPayment',
        requests: 3,
        quotaRefusals: 1,
        errors: 1,
        // Issue 27: p50/p95 estimated within the observed range [6, 10], not the bucket's [0, 10].
        latency: { count: 3, avgMs: 8, p50Ms: 8, p95Ms: 9.8, minMs: 6, maxMs: 10 },
      },
    ]);
    const subscriptions = hour.body.subscriptions as {
      id: string;
      application: string;
      rotationDue: string;
      keys: { slot: string; masked: string; rotationDue: string }[];
    }[];
    assert.deepEqual(
      subscriptions.map((s) => [s.id, s.application, s.rotationDue, s.keys.length]),
      [[id, 'usage-app', 'ok', 2]],
    );
    assert.match(subscriptions[0]?.keys[0]?.masked ?? '', /^tgk_…/);
    const mine = await call('GET', '/usage', undefined, developerToken);
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.body.rows, []);
  });
});
