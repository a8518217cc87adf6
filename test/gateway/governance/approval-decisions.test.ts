// Who may approve through the admin plane (issue 25, "Confirmation and approval over MCP": "Approval is never
// taken from anything the client can forge … the approver signs in on the approval page"). The agent's MCP
// client holds the user's bearer token, and the admin API verifies user tokens with the same identity
// settings, so an approval decided with a bearer token could be the agent approving its own call: only a
// person signed in through the OpenID Connect provider may approve (docs/decisions.md, D-309). Rejecting stays open to bearer tokens: it can only stop a call.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { AuditLog } from '../../../src/gateway/admin/audit-log.js';
import { ApprovalDecisions } from '../../../src/gateway/admin/approvals.js';
import { AdminError } from '../../../src/gateway/admin/errors.js';
import type { Actor } from '../../../src/gateway/admin/actor.js';
import { Consent } from '../../../src/gateway/governance/consent/service.js';
import { ISSUER, consentDecision, paymentCall } from './consent-support.js';

const ALICE_TOKEN: Actor = {
  role: 'developer',
  subject: 'alice',
  issuer: ISSUER,
  via: 'bearer-token',
  roles: [],
};
const ALICE_SESSION: Actor = { ...ALICE_TOKEN, via: 'oidc-session' };
const BOB_TOKEN: Actor = {
  role: 'developer',
  subject: 'bob',
  issuer: ISSUER,
  via: 'bearer-token',
  roles: ['payments-approver'],
};

let db: Database;
let consent: Consent;
let decisions: ApprovalDecisions;

before(async () => {
  db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  consent = new Consent({ db, ttlSeconds: 900, adminBaseUrl: 'https://admin.example.test' });
  decisions = new ApprovalDecisions({ db, audit: new AuditLog(db), consent });
});

after(async () => {
  await db.close();
});

function refusedAsNotApprover(error: unknown): boolean {
  return error instanceof AdminError && error.code === 'NOT_APPROVER';
}

describe('issue 25: approvals are decided by a signed-in person, never with a bearer token an agent holds', () => {
  test("confirm: alice's own bearer token (the one her agent calls MCP with) cannot confirm her call", async () => {
    const approval = await consent.request(
      paymentCall({ amount: '1500.00' }),
      consentDecision('confirm'),
    );
    await assert.rejects(decisions.approve(ALICE_TOKEN, approval.id), refusedAsNotApprover);
    assert.equal((await consent.get(approval.id))?.status, 'pending');
    // alice signed in on the approval page confirms it.
    assert.equal((await decisions.approve(ALICE_SESSION, approval.id)).status, 'approved');
  });

  test("approve: bob's bearer token cannot approve either; rejecting with a token stays possible", async () => {
    const approval = await consent.request(
      paymentCall({ amount: '15000.00' }),
      consentDecision('approve'),
    );
    await assert.rejects(decisions.approve(BOB_TOKEN, approval.id), refusedAsNotApprover);
    assert.equal((await consent.get(approval.id))?.status, 'pending');
    const rejected = await decisions.reject(BOB_TOKEN, approval.id, 'not this one');
    assert.equal(rejected.status, 'rejected');
  });
});
