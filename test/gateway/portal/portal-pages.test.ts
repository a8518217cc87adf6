// The portal's pages on the real admin app (createAdminApp mounts the portal) and a real SQLite
// gateway database, driven with inject: request access with field errors, hostile names printed as
// text, approve, collect keys once (a reload shows them masked), reject, role separation, audit page.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import type { Database } from '../../../src/shared/db/types.js';
import { openGatewayDatabase } from '../../../src/gateway/database.js';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { loadCatalogue } from '../../../src/gateway/catalogue/load.js';
import { definitionHash, toolDefinition } from '../../../src/gateway/catalogue/definition.js';
import type { FrozenConfig } from '../../../src/config/schema.js';
import { ToolPinRepository } from '../../../src/gateway/storage/tool-pins.js';

const ISSUER = 'https://idp.example.test';
const AUDIENCE = 'toolgate-admin';

describe('portal pages on the admin app (inject)', () => {
  let app: FastifyInstance;
  let db: Database;
  let services: AdminServices;
  let adminToken: string;
  let signingKey: CryptoKey;
  let gatewayConfig: FrozenConfig;

  before(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-portal-pages-'));
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    signingKey = privateKey;
    const config = loadConfig({
      env: {},
      overrides: {
        dataDir,
        gateway: {
          auth: {
            subscriptionKeys: { pepper: 'pepper-for-portal-tests-0123' },
            jwt: {
              issuer: ISSUER,
              audience: AUDIENCE,
              staticKeys: [{ kid: 'k1', alg: 'ES256', jwk: { ...(await exportJWK(publicKey)) } }],
            },
            // The portal's own sign-in keeps the configured provider while these tests save others.
            settingsRefreshMs: 300_000,
          },
        },
      },
    });
    gatewayConfig = config;
    db = await openGatewayDatabase(config.gateway.database, config.dataDir);
    services = openAdminServices(db, config);
    adminToken = (await services.bootstrapTokens.rotate()).token;
    const { logger } = createLogger({ level: 'silent' });
    app = await createAdminApp({ config, logger, db });
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  function userToken(sub: string, claims: Record<string, unknown> = {}): Promise<string> {
    return new SignJWT({ ...claims, email: `${sub}@example.com` })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(signingKey);
  }

  async function signIn(token: string): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token }).toString(),
    });
    assert.equal(res.statusCode, 303, res.body);
    return String(res.headers['set-cookie']).split(';')[0] as string;
  }

  async function get(cookie: string, url: string) {
    return app.inject({ method: 'GET', url, headers: { cookie } });
  }

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
    return app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  }

  const HOSTILE = '<script>alert(1)</script>';

  test('developer → request (errors at fields, hostile input as text) → admin approves → keys once', async () => {
    const dev = await signIn(await userToken('dana'));
    const admin = await signIn(adminToken);
    assert.equal((await get(dev, '/portal/')).headers.location, '/portal/applications');
    assert.equal((await get(admin, '/portal/')).headers.location, '/portal/admin/requests');
    assert.equal(
      (await get(dev, '/portal/admin/requests')).statusCode,
      403,
      'developers see no admin pages',
    );

    const invalid = await post(
      dev,
      '/portal/request',
      { application: '', 'owner.email': 'nope', justification: '' },
      '/portal/request',
    );
    assert.equal(invalid.statusCode, 400);
    for (const name of ['application', 'owner.email', 'environments', 'justification'])
      assert.match(
        invalid.body,
        new RegExp(`id="f-${name.replace('.', '\\.')}-error"`),
        `error for ${name}`,
      );
    assert.match(invalid.body, /aria-describedby="f-application-hint f-application-error"/);

    // A hostile application name is refused by the API's own schema and echoed back as text.
    const hostileName = await post(
      dev,
      '/portal/request',
      {
        application: HOSTILE,
        'owner.name': 'Dana',
        'owner.email': 'dana@example.com',
        toolsMode: 'all',
        environments: 'development',
        justification: 'x',
      },
      '/portal/request',
    );
    assert.equal(hostileName.statusCode, 400);
    assert.ok(!hostileName.body.includes(HOSTILE));
    assert.ok(hostileName.body.includes('value="&lt;script&gt;alert(1)&lt;/script&gt;"'));
    assert.match(hostileName.body, /id="f-application-error"/);

    const ok = await post(
      dev,
      '/portal/request',
      {
        application: 'invoice-agent',
        'owner.name': `Dana ${HOSTILE}`,
        'owner.email': 'dana@example.com',
        toolsMode: 'all',
        environments: ['development', 'production'],
        justification: `Invoices ${HOSTILE}`,
      },
      '/portal/request',
    );
    assert.equal(ok.statusCode, 303, ok.body);
    const mine = await get(dev, ok.headers.location as string);
    assert.match(mine.body, /Your access request was sent/);
    assert.ok(!mine.body.includes(HOSTILE), 'hostile names never reach the page as markup');
    assert.ok(mine.body.includes('invoice-agent'));

    const pending = await get(admin, '/portal/admin/requests');
    assert.ok(!pending.body.includes(HOSTILE), 'hostile owner name and justification are text');
    assert.ok(pending.body.includes('Dana &lt;script&gt;alert(1)&lt;/script&gt;'));
    const id = /action="\/portal\/admin\/requests\/([^/]+)\/approve"/.exec(pending.body)?.[1];
    assert.ok(id);
    const approved = await post(
      admin,
      `/portal/admin/requests/${id}/approve`,
      { [`${id}-rateLimitPerMinute`]: '120' },
      '/portal/admin/requests',
    );
    assert.equal(approved.statusCode, 303, approved.body);

    const before = await get(dev, '/portal/applications');
    assert.match(before.body, /Collect keys/);
    const collected = await post(dev, `/portal/requests/${id}/keys`, {}, '/portal/applications');
    assert.equal(collected.statusCode, 200, collected.body);
    assert.equal(collected.headers['cache-control'], 'no-store');
    const keys = [
      ...collected.body.matchAll(
        /id="key-(development|production)-(primary|secondary)"[^>]*>([^<]+)</g,
      ),
    ];
    assert.equal(keys.length, 4, 'primary and secondary per environment');
    assert.match(collected.body, /&quot;type&quot;: &quot;http&quot;/);
    assert.match(collected.body, /Ocp-Apim-Subscription-Key/);

    const reload = await get(dev, '/portal/applications');
    for (const [, , , key] of keys) {
      assert.ok(!reload.body.includes(key as string), 'a key is shown once');
      assert.ok(reload.body.includes(`…${(key as string).slice(-4)}`), 'then masked');
    }
    // Issue 27, words: times as people read them, a sentence starting with a capital.
    assert.match(reload.body, /Collected \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);
    const again = await post(dev, `/portal/requests/${id}/keys`, {}, '/portal/applications');
    assert.equal(again.statusCode, 409);
    for (const [, , , key] of keys) assert.ok(!again.body.includes(key as string));

    const audit = await get(admin, '/portal/admin/audit?action=access-request.approve');
    assert.match(audit.body, /access-request\.approve/);
    assert.match(audit.body, /Hash chain verified/);
    for (const [, , , key] of keys)
      assert.ok(!audit.body.includes(key as string), 'no key in the audit log');
    const exported = await get(admin, '/portal/admin/audit/export');
    assert.match(String(exported.headers['content-type']), /application\/jsonl/);
    assert.ok(
      exported.body
        .trim()
        .split('\n')
        .every((line) => JSON.parse(line).hash),
    );
  });

  test('a rejected request shows its reason and offers no keys', async () => {
    const dev = await signIn(await userToken('erin'));
    const admin = await signIn(adminToken);
    await post(
      dev,
      '/portal/request',
      {
        application: 'erin-agent',
        'owner.name': 'Erin',
        'owner.email': 'erin@example.com',
        toolsMode: 'all',
        environments: ['production'],
        justification: 'x',
      },
      '/portal/request',
    );
    const pending = await get(admin, '/portal/admin/requests');
    const id = [...pending.body.matchAll(/action="\/portal\/admin\/requests\/([^/]+)\/reject"/g)]
      .map((m) => m[1])
      .pop();
    assert.ok(id);
    const noReason = await post(
      admin,
      `/portal/admin/requests/${id}/reject`,
      {},
      '/portal/admin/requests',
    );
    assert.equal(noReason.statusCode, 400);
    assert.match(noReason.body, /Give the requester a reason/);
    const rejected = await post(
      admin,
      `/portal/admin/requests/${id}/reject`,
      { [`${id}-reason`]: 'not for production yet' },
      '/portal/admin/requests',
    );
    assert.equal(rejected.statusCode, 303);
    const mine = await get(dev, '/portal/applications');
    assert.match(mine.body, /status-rejected/);
    assert.match(mine.body, /not for production yet/);
    assert.doesNotMatch(mine.body, /Collect keys/);
    const forced = await post(dev, `/portal/requests/${id}/keys`, {}, '/portal/applications');
    assert.equal(forced.statusCode, 409);
    assert.doesNotMatch(forced.body, /tgk_[A-Za-z0-9]{8}/);
  });

  test('the admin suspends and rotates from the subscriptions page', async () => {
    const admin = await signIn(adminToken);
    const list = await get(admin, '/portal/admin/subscriptions');
    const id = /action="\/portal\/admin\/subscriptions\/([^/]+)\/suspend"/.exec(list.body)?.[1];
    assert.ok(id, list.body);
    const suspended = await post(
      admin,
      `/portal/admin/subscriptions/${id}/suspend`,
      {},
      '/portal/admin/subscriptions',
    );
    assert.equal(suspended.statusCode, 303);
    assert.equal((await services.subscriptions.get(id))?.status, 'suspended');
    const badLimit = await post(
      admin,
      `/portal/admin/subscriptions/${id}/limits`,
      { rateLimitPerMinute: 'lots', tools: '' },
      '/portal/admin/subscriptions',
    );
    assert.equal(badLimit.statusCode, 400);
    assert.match(badLimit.body, /rateLimitPerMinute/);
    const limits = await post(
      admin,
      `/portal/admin/subscriptions/${id}/limits`,
      { rateLimitPerMinute: '42', tools: 'getPayment, fetchBankDetails' },
      '/portal/admin/subscriptions',
    );
    assert.equal(limits.statusCode, 303, limits.body);
    const after = await services.subscriptions.get(id);
    assert.equal(after?.rateLimitPerMinute, 42);
    assert.deepEqual(after?.tools, ['getPayment', 'fetchBankDetails']);

    // Issue 27: the tools read as chips (no text input on the list); the limits have their own page,
    // with the catalogue's tools as checkboxes.
    const listed = await get(admin, '/portal/admin/subscriptions');
    assert.match(listed.body, /<ul class="chips">\s*<li><code>getPayment<\/code><\/li>/);
    assert.doesNotMatch(listed.body, /name="tools"/);
    assert.match(listed.body, /42 \/ min/);
    const edit = await get(admin, `/portal/admin/subscriptions/${id}`);
    assert.equal(edit.statusCode, 200);
    assert.match(edit.body, /id="tool-getPayment"\s+name="tools"\s+value="getPayment"\s+checked/);
    assert.match(edit.body, /id="tool-listPayments"\s+name="tools"\s+value="listPayments"\s+\/>/);
    const widened = await post(
      admin,
      `/portal/admin/subscriptions/${id}/limits`,
      { rateLimitPerMinute: '42', toolsMode: 'all', tools: ['getPayment'] },
      `/portal/admin/subscriptions/${id}`,
    );
    assert.equal(widened.statusCode, 303, widened.body);
    assert.equal((await services.subscriptions.get(id))?.tools, null, 'all approved tools');

    // Destructive actions are confirmed first: the first post only asks.
    const before = (await get(admin, '/portal/admin/subscriptions')).body;
    const rotateAsked = await post(
      admin,
      `/portal/admin/subscriptions/${id}/keys/primary/rotate`,
      {},
      '/portal/admin/subscriptions',
    );
    assert.equal(rotateAsked.statusCode, 200);
    assert.match(rotateAsked.body, /Rotate the primary key of .*\?/);
    assert.doesNotMatch(rotateAsked.body, /tgk_[A-Za-z0-9]{8}/, 'no new key yet');
    const masked = (body: string) => body.match(/tgk_…[A-Za-z0-9]{4}/g)?.join(' ');
    assert.equal(masked((await get(admin, '/portal/admin/subscriptions')).body), masked(before));
    const rotated = await post(
      admin,
      `/portal/admin/subscriptions/${id}/keys/primary/rotate`,
      { confirm: 'yes' },
      '/portal/admin/subscriptions',
    );
    assert.equal(rotated.statusCode, 200, rotated.body);
    assert.match(rotated.body, /<code class="secret"[^>]*>tgk_[A-Za-z0-9]+<\/code>/);
    assert.notEqual(
      masked((await get(admin, '/portal/admin/subscriptions')).body),
      masked(before),
      'the confirmed rotation replaced the key',
    );
    const asked = await post(
      admin,
      `/portal/admin/subscriptions/${id}/revoke`,
      {},
      '/portal/admin/subscriptions',
    );
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /Revoke .* \(.*\)\?/);
    assert.match(asked.body, /<input type="hidden" name="confirm" value="yes" \/>/);
    assert.equal((await services.subscriptions.get(id))?.status, 'suspended', 'not revoked yet');
    const revoked = await post(
      admin,
      `/portal/admin/subscriptions/${id}/revoke`,
      { confirm: 'yes' },
      '/portal/admin/subscriptions',
    );
    assert.equal(revoked.statusCode, 303);
    assert.equal((await services.subscriptions.get(id))?.status, 'revoked');
  });

  test('tools: the admin revokes a tool from the portal; developers cannot open the page', async () => {
    const dev = await signIn(await userToken('frank'));
    assert.equal((await get(dev, '/portal/admin/tools')).statusCode, 403);
    const usage = await get(dev, '/portal/usage?window=day');
    assert.equal(usage.statusCode, 200);
    assert.match(usage.body, /No calls in the last day/);
    assert.match(usage.body, /<option value="day"\s+selected>/);
    const admin = await signIn(adminToken);
    // Issue 27: the tools are a list (one row each, linked) and each has a page with its form.
    const page = await get(admin, '/portal/admin/tools');
    assert.equal(page.statusCode, 200);
    assert.match(
      page.body,
      /<a href="\/portal\/admin\/tools\/getPayment"><code>getPayment<\/code><\/a>/,
    );
    assert.doesNotMatch(page.body, /<form method="post" action="\/portal\/admin\/tools\//);
    assert.match(page.body, /<a href="\/portal\/admin\/tools" aria-current="page">Tools<\/a>/);
    assert.match(page.body, /user-scoped/, 'the security class as the docs name it');
    assert.doesNotMatch(page.body, /user_scoped|user-scope\b/);
    const detail = await get(admin, '/portal/admin/tools/getPayment');
    assert.equal(detail.statusCode, 200);
    assert.match(detail.body, /<label for="getPayment-approval">Approval<\/label/);
    assert.match(detail.body, /<a href="\/portal\/admin\/tools" aria-current="page">Tools<\/a>/);
    assert.equal((await get(admin, '/portal/admin/tools/noSuchTool')).statusCode, 404);
    const changed = await post(
      admin,
      '/portal/admin/tools/getPayment',
      { approval: 'revoked', securityClass: 'user' },
      '/portal/admin/tools',
    );
    assert.equal(changed.statusCode, 303, changed.body);
    const audit = await get(admin, '/portal/admin/audit?target=getPayment');
    assert.match(audit.body, /getPayment/);
    const refreshed = await get(admin, '/portal/admin/tools?done=getPayment');
    assert.match(refreshed.body, /Tool getPayment saved/);
  });

  test('identity provider: a JWKS that is not JSON is refused at its field; an unusable provider is not saved', async () => {
    const admin = await signIn(adminToken);
    const page = await get(admin, '/portal/admin/identity-provider');
    assert.equal(page.statusCode, 200);
    const base = {
      mode: 'conditional',
      issuer: 'http://127.0.0.1:1/idp',
      audience: 'http://127.0.0.1:8080/mcp',
      discoveryUrl: '',
      algorithms: '',
      forwardClaims: '',
      sampleToken: '',
    };
    const badJson = await post(
      admin,
      '/portal/admin/identity-provider',
      { ...base, jwks: '{not json', intent: 'validate' },
      '/portal/admin/identity-provider',
    );
    assert.equal(badJson.statusCode, 400);
    assert.match(badJson.body, /id="f-jwks-error"/);
    assert.match(badJson.body, /aria-describedby="f-jwks-error"/);

    const unreachable = await post(
      admin,
      '/portal/admin/identity-provider',
      {
        ...base,
        discoveryUrl: 'http://127.0.0.1:1/idp/.well-known/openid-configuration',
        jwks: '',
        intent: 'save',
      },
      '/portal/admin/identity-provider',
    );
    assert.equal(unreachable.statusCode, 422);
    assert.match(unreachable.body, /Not saved/);
    assert.match(unreachable.body, /problems found/);
    const versions = await services.audit.query({ action: 'identity-provider.update' });
    assert.equal(versions.length, 0, 'nothing was saved or audited');
  });

  test('identity provider: static keys validate, save as version 1 (shown in the list), revert', async () => {
    const admin = await signIn(adminToken);
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'static-1', alg: 'ES256' };
    const settings = {
      mode: 'conditional',
      issuer: 'https://static-idp.example.test',
      audience: 'http://127.0.0.1:8080/mcp',
      discoveryUrl: '',
      jwks: JSON.stringify({ keys: [jwk] }),
      algorithms: 'ES256',
      forwardClaims: 'email=X-User-Email',
      sampleToken: '',
    };
    const validatedPage = await post(
      admin,
      '/portal/admin/identity-provider',
      { ...settings, intent: 'validate' },
      '/portal/admin/identity-provider',
    );
    assert.equal(validatedPage.statusCode, 200, validatedPage.body);
    assert.match(validatedPage.body, /the gateway can use these settings/);
    assert.match(validatedPage.body, /static-1/);
    const saved = await post(
      admin,
      '/portal/admin/identity-provider',
      { ...settings, intent: 'save' },
      '/portal/admin/identity-provider',
    );
    assert.equal(saved.statusCode, 303, saved.body);
    const after = await get(admin, saved.headers.location as string);
    assert.match(after.body, /Saved as a new version/);
    assert.match(after.body, /In force:\s+version 1/);
    assert.match(after.body, /https:\/\/static-idp\.example\.test/);
    const reverted = await post(
      admin,
      '/portal/admin/identity-provider/revert',
      {},
      '/portal/admin/identity-provider',
    );
    assert.equal(reverted.statusCode, 303, reverted.body);
    const back = await get(admin, reverted.headers.location as string);
    assert.match(back.body, /Reverted/);
    assert.match(back.body, /In force:\s+the configuration file/);
    const actions = (await services.audit.query({})).map((e) => e.action);
    assert.ok(actions.includes('identity-provider.update'));
    assert.ok(actions.includes('identity-provider.revert'));
  });

  test('tools: a tool whose definition changed since approval is shown held back with the difference, and re-approved from the page (issue 25, pinned tool definitions)', async () => {
    const approved = (await services.tools.list()).find(
      (t) => t.approval.state === 'approved' && t.name !== 'getPayment',
    );
    assert.ok(approved, 'an approved tool');
    // Pin the definition as it was before the backend changed its description.
    const tool = (await loadCatalogue(gatewayConfig.gateway.backends)).byName.get(approved.name);
    assert.ok(tool);
    const old = { ...toolDefinition(tool), description: 'The description that was approved' };
    await db.transaction((tx) =>
      new ToolPinRepository(db).pin(
        tx,
        { name: approved.name, hash: definitionHash(old), definition: old },
        'test',
        new Date(),
      ),
    );
    const admin = await signIn(adminToken);
    const list = await get(admin, '/portal/admin/tools');
    assert.match(list.body, /<strong>Held back<\/strong>: 1 tool changed/);
    const page = await get(admin, `/portal/admin/tools/${approved.name}`);
    assert.match(page.body, /<strong>Held back<\/strong>/);
    const line =
      /<code>~ \/description: &quot;The description that was approved&quot; → &quot;([^<]*)&quot;<\/code>/.exec(
        page.body,
      );
    assert.ok(line, 'the difference names the changed description');
    assert.equal(line[1]?.endsWith('…'), false, 'the new description is shown whole');
    const reapproved = await post(
      admin,
      `/portal/admin/tools/${approved.name}`,
      { reapprove: 'yes' },
      '/portal/admin/tools',
    );
    assert.equal(reapproved.statusCode, 303, reapproved.body);
    const after = await services.tools.get(approved.name);
    assert.equal(after.definition.heldBack, false);
    assert.equal(after.definition.pinned?.hash, after.definition.hash);
    assert.equal(after.title, approved.title, 'nothing else changed');
    assert.doesNotMatch((await get(admin, '/portal/admin/tools')).body, /Held back/);
  });
});
