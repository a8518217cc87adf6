// Governed calls on the real parts (issue 25): the rules from the configuration (live governor, CEL), the
// consent store on SQLite, the memory budget ledger and the audit chain, across two gateway replicas on one
// database: a 2026-07-28 consent round trip asked on one replica is finished on the other (the requestState
// is stateless); a replayed or altered requestState and a rule change between request and retry are refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  MCP_HEADERS,
  OPEN_GATEKEEPER,
  fixtureBackendConfig,
  startTestGateway,
  type TestGateway,
} from '../support/gateway.js';
import type { Gatekeeper } from '../../../src/gateway/gatekeeper/gatekeeper.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { loadConfig } from '../../../src/config/load.js';
import { AuditLog } from '../../../src/gateway/admin/audit-log.js';
import { ApprovalDecisions } from '../../../src/gateway/admin/approvals.js';
import { PolicyService } from '../../../src/gateway/admin/policies.js';
import { createConsentService } from '../../../src/gateway/governance/consent/service.js';
import type { Actor } from '../../../src/gateway/admin/actor.js';

const ISSUER = 'https://idp.example.test';
const ALICE: Actor = { role: 'developer', subject: 'alice', issuer: ISSUER, via: 'oidc-session' };
const ADMIN: Actor = { role: 'admin', subject: 'bootstrap-admin', via: 'bootstrap-token' };

/** Every caller is alice (verified by a token from ISSUER), on one subscription. */
const ALICE_GATEKEEPER: Gatekeeper = {
  ...OPEN_GATEKEEPER,
  identify: async (request) => ({
    ...(await OPEN_GATEKEEPER.identify(request)),
    user: {
      subject: 'alice',
      claims: { iss: ISSUER, sub: 'alice' },
      expiresAt: 4_000_000_000,
      tokenHash: 'test',
    },
  }),
};

const RULES = [
  {
    id: 'confirm-over-1000',
    when: 'has(money.base) && money.base > 1000.0',
    effect: 'confirm',
    message: 'Payments above 1,000 EUR need your confirmation.',
  },
];

let backend: FixtureBackend;
let db: Database;
let a: TestGateway;
let b: TestGateway;
let decisions: ApprovalDecisions;
let policies: PolicyService;

before(async () => {
  backend = await startFixtureBackend();
  db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const gateway = {
    backends: [
      fixtureBackendConfig(backend.baseUrl, {
        tools: {
          createPayment: {
            money: { amount: '/body/amount/value', currency: '/body/amount/currency' },
          },
        },
      }),
    ],
    mcp: { requestStateSecret: 'the-replicas-share-this-secret-0123' },
    policies: RULES,
    governance: { policyRefreshMs: 300000 },
  };
  a = await startTestGateway(gateway, ALICE_GATEKEEPER, { db });
  b = await startTestGateway(gateway, ALICE_GATEKEEPER, { db });
  const config = loadConfig({ env: {}, overrides: { gateway } });
  const audit = new AuditLog(db);
  decisions = new ApprovalDecisions({ db, audit, consent: createConsentService({ db, config }) });
  policies = new PolicyService({
    db,
    audit,
    governance: config.gateway.governance,
    configured: config.gateway.policies,
    lookupTool: async () => undefined,
  });
});
after(async () => {
  await a.close();
  await b.close();
  await db.close();
  await backend.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-RPC bodies

async function call(gw: TestGateway, value: string, extra: Json = {}): Promise<Json> {
  const r = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      ...MCP_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'createPayment',
    },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'createPayment',
        arguments: { body: { amount: { value, currency: 'EUR' }, payee: 'Ada' } },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
        },
        ...extra,
      },
    }),
  });
  assert.equal(r.statusCode, 200, r.body);
  return (JSON.parse(r.body) as Json).result as Json;
}

async function ask(gw: TestGateway, value: string) {
  const asked = await call(gw, value);
  assert.equal(asked.resultType, 'input_required', JSON.stringify(asked));
  return {
    id: asked._meta['io.toolgate/approval'].id as string,
    state: asked.requestState as string,
  };
}

const payments = () => backend.requests.filter((r) => r.url === '/api/v1/payments').length;

describe('issue 25: consent round trips on the real policy, consent and audit parts, two replicas', () => {
  test('asked on replica A, approved by alice, finished on replica B; a replay on A is refused as used', async () => {
    const before = payments();
    const { id, state } = await ask(a, '1500.00');
    await decisions.approve(ALICE, id);
    const done = await call(b, '1500.00', { requestState: state });
    assert.equal(done.resultType, 'complete');
    assert.equal(done.isError, undefined, JSON.stringify(done));
    assert.equal(payments(), before + 1);
    const replay = await call(a, '1500.00', { requestState: state });
    assert.equal(replay.isError, true);
    assert.equal(replay.structuredContent.governance.reason, 'used');
    assert.equal(payments(), before + 1);
  });

  test('an altered requestState is refused on either replica', async () => {
    const { id, state } = await ask(a, '1600.00');
    await decisions.approve(ALICE, id);
    const tampered = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    const r = await call(b, '1600.00', { requestState: tampered });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.governance.reason, 'signature');
  });

  test('a rule change between request and retry is refused (the policy version is part of the binding)', async () => {
    const { id, state } = await ask(a, '1700.00');
    await decisions.approve(ALICE, id);
    const current = await policies.current(ADMIN);
    await policies.save(ADMIN, [{ ...RULES[0], message: 'Reworded.' }], current.version);
    await b.app.governor?.refresh();
    const r = await call(b, '1700.00', { requestState: state });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.governance.reason, 'policy-changed');
    assert.match(
      r.content[0].text,
      /rules changed between the request for approval \(version 0\) and this retry \(version 1\)/,
    );
  });
});
