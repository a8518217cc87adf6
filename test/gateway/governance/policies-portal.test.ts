// Issue 25, "Policies": rules "in the admin API … and portal: versioned, compiled and checked before saving
// with the error named". The portal's Policies page on the real admin app: the rules in force, an edit
// whose compile errors are shown by rule and field (nothing saved), a dry run of the edited rules, a save
// (CSRF-protected form) that appears in the version history, and no access without the form's CSRF token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../src/config/load.js';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { openAdminServices, type AdminServices } from '../../../src/gateway/admin/services.js';
import { openGatewayDatabase } from '../../../src/gateway/database.js';
import type { Database } from '../../../src/shared/db/types.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { fixtureBackendConfig } from '../support/gateway.js';

const PAGE = '/portal/admin/policies';

describe('portal: the Policies page (issue 25)', () => {
  let app: FastifyInstance;
  let db: Database;
  let services: AdminServices;
  let cookie: string;

  before(async () => {
    const config = loadConfig({
      env: {},
      overrides: {
        dataDir: mkdtempSync(join(tmpdir(), 'toolgate-policies-portal-')),
        gateway: {
          backends: [fixtureBackendConfig('http://127.0.0.1:9')],
          policies: [
            { id: 'file-rule', when: 'has(money.base) && money.base > 1000', effect: 'confirm' },
          ],
        },
      },
    });
    db = await openGatewayDatabase(config.gateway.database, config.dataDir);
    services = openAdminServices(db, config);
    const adminToken = (await services.bootstrapTokens.rotate()).token;
    const { logger } = createLogger({ level: 'silent' });
    app = await createAdminApp({ config, logger, db });
    await app.ready();
    const signIn = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: adminToken }).toString(),
    });
    assert.equal(signIn.statusCode, 303);
    cookie = String(signIn.headers['set-cookie']).split(';')[0] as string;
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  async function post(fields: Record<string, string>, withCsrf = true) {
    const page = await app.inject({ method: 'GET', url: PAGE, headers: { cookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(csrf);
    const version = /name="version" value="(\d+)"/.exec(page.body)?.[1] ?? '';
    const body = new URLSearchParams({ ...(withCsrf ? { _csrf: csrf } : {}), version, ...fields });
    return app.inject({
      method: 'POST',
      url: PAGE,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body.toString(),
    });
  }

  test('shows the rules in force and the editor, prefilled', async () => {
    const page = await app.inject({ method: 'GET', url: PAGE, headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /the configuration file’s rules/);
    assert.match(page.body, /file-rule/);
    assert.match(page.body, /No saved versions yet/);
    assert.match(page.body, /href="\/portal\/admin\/policies" aria-current="page">Policies</);
  });

  test('a rule that does not compile is shown with its rule and field, and nothing is saved', async () => {
    const refused = await post({
      intent: 'save',
      rules: '- id: broken\n  when: "money.base >"\n  effect: deny\n',
    });
    assert.equal(refused.statusCode, 422);
    assert.match(refused.body, /Not saved: the rules do not compile/);
    assert.match(refused.body, /rule 0 &quot;broken&quot;, when: Unexpected token/);
    assert.equal((await services.audit.query({ action: 'policies.update' })).length, 0);
    const notYaml = await post({ intent: 'save', rules: 'rules: [' });
    assert.equal(notYaml.statusCode, 400);
    assert.match(notYaml.body, /neither JSON nor YAML/);
  });

  test('a dry run of the edited rules answers the deciding rule and the trace', async () => {
    const answer = await post({
      intent: 'dry-run',
      rules: JSON.stringify([
        {
          id: 'approve-big',
          when: 'has(money.base) && money.base > 10000',
          effect: 'approve',
          role: 'payments-approver',
        },
      ]),
      sample: JSON.stringify({
        tool: { name: 'createPayment' },
        money: { amount: '12000', currency: 'EUR' },
      }),
    });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.match(answer.body, /Dry run: approve/);
    assert.match(answer.body, /Rule 0 &quot;approve-big&quot; \(approve\) decided/);
    assert.match(answer.body, /payments-approver/);
    assert.equal(
      (await services.audit.query({ action: 'policies.update' })).length,
      0,
      'a dry run saves nothing',
    );
  });

  test('save stores a new version (audited, in the history); a form without its CSRF token is refused', async () => {
    const rules = '- id: deny-cancel\n  when: tool.name == "cancelPayment"\n  effect: deny\n';
    const forged = await post({ intent: 'save', rules }, false);
    assert.equal(forged.statusCode, 403);
    const saved = await post({ intent: 'save', rules });
    assert.equal(saved.statusCode, 303, saved.body);
    const after = await app.inject({
      method: 'GET',
      url: String(saved.headers.location),
      headers: { cookie },
    });
    assert.match(after.body, /Saved as a new version/);
    assert.match(after.body, /In force:\s+version 1/);
    assert.match(after.body, /deny-cancel/);
    assert.equal((await services.audit.query({ action: 'policies.update' })).length, 1);
  });
});
