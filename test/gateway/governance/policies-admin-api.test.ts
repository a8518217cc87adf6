// Issue 25, "Policies": rules in the admin API (`GET`/`PUT /admin/api/v1/policies`,
// `POST /admin/api/v1/policies/dry-run`): versioned, compiled and checked before saving with the error
// named, audited; the dry run takes a sample call and answers which rule decided and why. Through the
// admin app (bearer authentication, problem+json), on SQLite and on PostgreSQL when DATABASE_URL is set.
import { parseGovernanceConfig } from '../../../src/config/gateway-governance.js';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../../src/config/load.js';
import { createAdminApp } from '../../../src/gateway/admin/app.js';
import { PolicyService } from '../../../src/gateway/admin/policies.js';
import { AdminError } from '../../../src/gateway/admin/errors.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';
import { fixtureBackendConfig } from '../support/gateway.js';
import { DEVELOPER, RecordingAuditSink } from '../admin/live-support.js';
import { DATABASE_TARGETS, type OpenedDatabase } from '../admin/support.js';

const ADMIN_TOKEN = 'tga_policies-bootstrap-token-0123456789';
const BASE = '/admin/api/v1';

const FILE_RULES = [
  {
    id: 'no-deletes',
    when: 'tool.annotations.destructiveHint == true && tool.name.startsWith("cancel")',
    effect: 'deny',
    message: 'Cancelling is not for agents.',
  },
];

const NEW_RULES = [
  {
    id: 'confirm-1000',
    when: 'has(money.base) && money.base > 1000',
    effect: 'confirm',
  },
  {
    id: 'approve-10000',
    description: 'four eyes above 10,000',
    when: 'has(money.base) && money.base > 10000',
    effect: 'approve',
    role: 'payments-approver',
  },
  {
    id: 'daily',
    when: 'has(money.base)',
    effect: 'budget',
    budget: { scope: 'user', period: 'day', limit: '25000' },
  },
];

for (const target of DATABASE_TARGETS)
  describe(`policies admin API (${target.name})`, { skip: target.skip }, () => {
    let opened: OpenedDatabase;
    let app: FastifyInstance;

    before(async () => {
      const config = loadConfig({
        env: {},
        overrides: {
          dataDir: mkdtempSync(join(tmpdir(), 'toolgate-policies-')),
          logging: { level: 'warn' },
          admin: { bootstrapToken: ADMIN_TOKEN },
          gateway: {
            backends: [fixtureBackendConfig('http://127.0.0.1:9')],
            auth: { devIdentityProvider: { enabled: false } },
            governance: { rates: { USD: '0.86' } },
            policies: FILE_RULES,
          },
        },
      });
      opened = await target.open();
      const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
      app = await createAdminApp({ config, logger, db: opened.db });
    });
    after(async () => {
      await app.close();
      await opened.close();
    });

    const call = async (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const reply = await app.inject({
        method,
        url: `${BASE}${url}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers },
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return {
        status: reply.statusCode,
        etag: reply.headers.etag,
        type: String(reply.headers['content-type'] ?? ''),
        body: reply.json() as Record<string, unknown> & {
          code?: string;
          detail?: string;
          errors?: { field: string; message: string }[];
        },
      };
    };

    test('GET answers the configuration file’s rules as version 0 until a version is stored', async () => {
      const current = await call('GET', '/policies');
      assert.equal(current.status, 200);
      assert.equal(current.etag, '"0"');
      assert.equal(current.body.source, 'configuration');
      assert.equal(current.body.version, 0);
      assert.deepEqual(current.body.rules, FILE_RULES);
    });

    test('PUT: compiled first (422 naming the rule and field), If-Match required and checked (428, 412), audited', async () => {
      const unnamed = await call('PUT', '/policies', { rules: NEW_RULES });
      assert.equal(unnamed.status, 428);
      assert.equal(unnamed.body.code, 'POLICY_VERSION_REQUIRED');

      const broken = await call(
        'PUT',
        '/policies',
        { rules: [NEW_RULES[0], { id: 'broken', when: 'money.base >', effect: 'deny' }] },
        { 'if-match': '"0"' },
      );
      assert.equal(broken.status, 422);
      assert.match(broken.type, /application\/problem\+json/);
      assert.equal(broken.body.code, 'POLICY_INVALID');
      assert.equal(broken.body.errors?.[0]?.field, 'rules.1.when');
      assert.match(
        broken.body.errors?.[0]?.message ?? '',
        /^rule 1 "broken", when: Unexpected token/,
      );
      assert.match(broken.body.detail ?? '', /rule 1 "broken", when: /);

      const missingRole = await call(
        'PUT',
        '/policies',
        { rules: [{ id: 'x', when: 'true', effect: 'approve' }] },
        { 'if-match': '"0"' },
      );
      assert.equal(missingRole.status, 422);
      assert.equal(missingRole.body.errors?.[0]?.field, 'rules.0.role');
      assert.equal((await call('GET', '/policies')).body.version, 0, 'nothing was stored');

      const saved = await call('PUT', '/policies', { rules: NEW_RULES }, { 'if-match': '"0"' });
      assert.equal(saved.status, 200);
      assert.equal(saved.etag, '"1"');
      assert.equal(saved.body.version, 1);
      assert.equal(saved.body.source, 'stored');
      assert.equal(saved.body.createdBy, 'bootstrap-admin');

      const stale = await call('PUT', '/policies', { rules: FILE_RULES }, { 'if-match': '"0"' });
      assert.equal(stale.status, 412);
      assert.equal(stale.body.code, 'POLICY_VERSION_CONFLICT');
      assert.match(stale.body.detail ?? '', /you edited version 0, the current version is 1/);

      const byBody = await call('PUT', '/policies', { rules: NEW_RULES.slice(0, 2), version: 1 });
      assert.equal(byBody.status, 200);
      assert.equal(byBody.body.version, 2);

      const current = await call('GET', '/policies');
      assert.deepEqual([current.body.version, current.etag], [2, '"2"']);
      assert.deepEqual(current.body.rules, NEW_RULES.slice(0, 2));

      const versions = await call('GET', '/policies/versions');
      assert.deepEqual(
        (versions.body.versions as { version: number }[]).map((v) => v.version),
        [2, 1],
      );

      const audit = await call('GET', '/audit?action=policies.update');
      const entries = audit.body.entries as {
        target: { type: string; id: string };
        before: { version: number };
        after: { version: number; rules: unknown[] };
      }[];
      assert.deepEqual(
        entries.map((e) => [e.target.type, e.target.id, e.before.version, e.after.version]).sort(),
        [
          ['policies', '1', 0, 1],
          ['policies', '2', 1, 2],
        ],
        'one entry per saved version; refused saves leave none',
      );
      const verified = await call('GET', '/audit/verify');
      assert.equal(verified.body.ok, true, 'the hash chain holds');
    });

    test('dry run: the deciding rule, why, the trace and the budgets, for the current and for unsaved rules', async () => {
      const sample = {
        tool: { name: 'createPayment' },
        arguments: { amount: { value: '15000.00', currency: 'EUR' } },
        caller: { subject: 'alice', scopes: ['payments:write'] },
        money: { amount: '15000.00', currency: 'EUR' },
      };
      const stored = await call('POST', '/policies/dry-run', sample);
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      const decision = stored.body.decision as Record<string, unknown>;
      assert.equal(decision.effect, 'approve');
      assert.equal(decision.ruleId, 'approve-10000');
      assert.equal(decision.approverRole, 'payments-approver');
      assert.equal(decision.policyVersion, 2);
      assert.deepEqual(stored.body.decidedBy, {
        index: 1,
        id: 'approve-10000',
        effect: 'approve',
        when: 'has(money.base) && money.base > 10000',
        description: 'four eyes above 10,000',
      });
      assert.match(String(stored.body.explanation), /Rule 1 "approve-10000" \(approve\) decided/);
      assert.deepEqual(decision.trace, [
        { ruleId: 'confirm-1000', matched: true },
        { ruleId: 'approve-10000', matched: true },
      ]);
      const callShown = stored.body.call as { tool: { backend: string } };
      assert.equal(callShown.tool.backend, 'fixture', 'looked up in the catalogue');

      const unsaved = await call('POST', '/policies/dry-run', {
        ...sample,
        money: { amount: '1500', currency: 'USD' },
        rules: NEW_RULES,
      });
      assert.equal(unsaved.status, 200);
      assert.deepEqual([unsaved.body.rules, unsaved.body.version], ['unsaved', null]);
      const unsavedDecision = unsaved.body.decision as {
        effect: string;
        budgets: { ruleId: string; limitMinor: number }[];
      };
      assert.equal(unsavedDecision.effect, 'confirm', '1,500 USD = 1,290 EUR');
      assert.deepEqual(
        unsavedDecision.budgets.map((b) => [b.ruleId, b.limitMinor]),
        [['daily', 2_500_000]],
      );
      assert.deepEqual(unsaved.body.money, {
        amount: '1500',
        currency: 'USD',
        baseCurrency: 'EUR',
        baseMinor: 129000,
      });

      const small = await call('POST', '/policies/dry-run', {
        ...sample,
        money: { amount: '10', currency: 'EUR' },
      });
      assert.equal((small.body.decision as { effect: string }).effect, 'allow');
      assert.match(
        String(small.body.explanation),
        /No allow, deny, confirm or approve rule matched/,
      );

      const unknown = await call('POST', '/policies/dry-run', { tool: { name: 'nope' } });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'UNKNOWN_TOOL');
      const given = await call('POST', '/policies/dry-run', {
        tool: { name: 'nope', backend: 'b', securityClass: 'public', annotations: {} },
      });
      assert.equal(given.status, 200);

      const badRules = await call('POST', '/policies/dry-run', {
        ...sample,
        rules: [{ id: 'x', when: '1 + 1', effect: 'deny' }],
      });
      assert.equal(badRules.status, 422);
      assert.equal(badRules.body.errors?.[0]?.field, 'rules.0.when');

      const badMoney = await call('POST', '/policies/dry-run', {
        ...sample,
        money: { amount: '10', currency: 'SEK' },
      });
      assert.equal(badMoney.status, 400);
      assert.match(badMoney.body.detail ?? '', /no exchange rate for SEK/);
    });

    test('the OpenAPI document lists the policy routes', async () => {
      const { body } = await call('GET', '/openapi.json');
      const paths = body.paths as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(paths['/policies'] ?? {}).sort(), ['get', 'put']);
      assert.ok(paths['/policies/dry-run']?.post);
      assert.ok(paths['/policies/versions']?.get);
    });

    test('only admins read, change or try the rules', async () => {
      const service = new PolicyService({
        db: opened.db,
        audit: new RecordingAuditSink(),
        governance: parseGovernanceConfig({ policyRefreshMs: 2000 }),
        configured: [],
        lookupTool: () => Promise.resolve(undefined),
      });
      const forbidden = (error: unknown) =>
        error instanceof AdminError && error.code === 'FORBIDDEN';
      await assert.rejects(service.current(DEVELOPER), forbidden);
      await assert.rejects(service.save(DEVELOPER, [], 2), forbidden);
      await assert.rejects(service.versions(DEVELOPER), forbidden);
    });
  });
