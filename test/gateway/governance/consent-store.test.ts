// The consent store and its single-use receipts (issue 25, "Confirmation and approval over MCP": "The
// approval is a single-use receipt bound to {subscription, user, tool, hash of the canonical arguments,
// policy version, expiry}. A retried call with other arguments, after expiry, or a second time, is refused
// with a clear reason."), on SQLite and, with DATABASE_URL, on PostgreSQL.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Consent, bindingOf } from '../../../src/gateway/governance/consent/service.js';
import type { Approver } from '../../../src/gateway/governance/consent/types.js';
import type { ConsentBinding } from '../../../src/gateway/governance/contracts.js';
import { DATABASE_TARGETS } from '../admin/support.js';
import { ISSUER, consentDecision, paymentCall } from './consent-support.js';

const ALICE: Approver = { issuer: ISSUER, subject: 'alice', roles: [], admin: false };
const BOB: Approver = {
  issuer: ISSUER,
  subject: 'bob',
  roles: ['payments-approver'],
  admin: false,
};

for (const target of DATABASE_TARGETS) {
  describe(`consent store on ${target.name}`, { skip: target.skip }, () => {
    /** A consent service on a fresh database whose clock the test moves. */
    async function open(ttlSeconds = 900) {
      const opened = await target.open();
      let now = new Date('2026-08-01T10:00:00.000Z');
      const consent = new Consent({
        db: opened.db,
        ttlSeconds,
        adminBaseUrl: 'https://admin.example.test/',
        clock: () => now,
      });
      return {
        consent,
        db: opened.db,
        close: () => opened.close(),
        advance(seconds: number) {
          now = new Date(now.getTime() + seconds * 1000);
        },
      };
    }

    async function approve(
      s: Awaited<ReturnType<typeof open>>,
      id: string,
      who: Approver = ALICE,
    ): Promise<void> {
      await s.db.transaction((tx) => s.consent.decide(tx, who, id, 'approved'));
    }

    test('request stores a pending approval with an unguessable id, its URL on the admin listener and the TTL', async () => {
      const s = await open(600);
      try {
        const call = paymentCall();
        const approval = await s.consent.request(call, consentDecision('confirm'));
        assert.match(approval.id, /^apv_[A-Za-z0-9_-]{22}$/, '128 random bits, base64url');
        assert.equal(approval.status, 'pending');
        assert.equal(approval.kind, 'confirm');
        assert.equal(approval.url, `https://admin.example.test/portal/approvals/${approval.id}`);
        assert.equal(approval.createdAt, '2026-08-01T10:00:00.000Z');
        assert.equal(approval.expiresAt, '2026-08-01T10:10:00.000Z');
        assert.equal(approval.callId, call.callId);
        assert.deepEqual(approval.binding, bindingOf(call, consentDecision('confirm')));
        const record = await s.consent.get(approval.id);
        assert.equal(record?.details.application, 'invoice-agent');
        assert.deepEqual(record?.details.arguments, call.arguments);
        assert.equal(record?.details.money?.amount, '1500.00');
        assert.equal(record?.details.message, 'Payments above 1,000 EUR need your confirmation.');
        assert.deepEqual(record?.initiator, { issuer: ISSUER, subject: 'alice' });
      } finally {
        await s.close();
      }
    });

    test('a second request for the same binding reuses the pending approval; other arguments get their own', async () => {
      const s = await open();
      try {
        const first = await s.consent.request(paymentCall(), consentDecision('confirm'));
        const again = await s.consent.request(paymentCall(), consentDecision('confirm'));
        assert.equal(again.id, first.id);
        const other = await s.consent.request(
          paymentCall({ amount: '1600.00' }),
          consentDecision('confirm'),
        );
        assert.notEqual(other.id, first.id);
      } finally {
        await s.close();
      }
    });

    test('redeem: approved once, used once; the second redeem is refused "used"', async () => {
      const s = await open();
      try {
        const call = paymentCall();
        const decision = consentDecision('confirm');
        const approval = await s.consent.request(call, decision);
        const binding = bindingOf(call, decision);
        const early = await s.consent.redeem(binding, approval.id);
        assert.equal(early.ok, false);
        assert.equal(!early.ok && early.reason, 'pending');
        assert.match(!early.ok ? early.message : '', /still waiting for a decision at https:/);

        await approve(s, approval.id);
        const first = await s.consent.redeem(binding, approval.id);
        assert.ok(first.ok, JSON.stringify(first));
        assert.equal(first.approval.status, 'used');
        const second = await s.consent.redeem(binding, approval.id);
        assert.equal(second.ok, false);
        assert.equal(!second.ok && second.reason, 'used');
        assert.match(!second.ok ? second.message : '', /already used .* only once/);
        // Without the id (a client that kept nothing), the newest approved one with the binding — none left.
        const byBinding = await s.consent.redeem(binding);
        assert.equal(!byBinding.ok && byBinding.reason, 'used');
      } finally {
        await s.close();
      }
    });

    // Review of issue 25: a receipt is consent of one kind. The user's own confirmation must not stand in for
    // the four-eyes approval the rules ask when the call is retried (a rule on `now`, claims or scopes can
    // turn the same binding from confirm into approve under the same policy version).
    test('redeem for an approve decision does not consume a confirm receipt (by id or by binding)', async () => {
      const s = await open();
      try {
        const call = paymentCall();
        const confirm = consentDecision('confirm');
        const approval = await s.consent.request(call, confirm);
        await approve(s, approval.id);
        const binding = bindingOf(call, confirm);
        const byId = await s.consent.redeem(binding, approval.id, 'approve');
        assert.equal(byId.ok, false, 'a confirmation is not a four-eyes approval');
        assert.equal(!byId.ok && byId.reason, 'mismatch');
        const byBinding = await s.consent.redeem(binding, undefined, 'approve');
        assert.equal(byBinding.ok, false);
        assert.equal(!byBinding.ok && byBinding.reason, 'mismatch');
        assert.equal((await s.consent.get(approval.id))?.status, 'approved', 'not consumed');
        assert.ok((await s.consent.redeem(binding, approval.id, 'confirm')).ok);
      } finally {
        await s.close();
      }
    });

    test('redeem without an id finds the approved receipt of exactly this binding', async () => {
      const s = await open();
      try {
        const call = paymentCall();
        const decision = consentDecision('confirm');
        const approval = await s.consent.request(call, decision);
        await approve(s, approval.id);
        const other = await s.consent.redeem(
          bindingOf(paymentCall({ amount: '2000.00' }), decision),
        );
        assert.equal(!other.ok && other.reason, 'unknown');
        const redeemed = await s.consent.redeem(bindingOf(call, decision));
        assert.ok(redeemed.ok);
        assert.equal(redeemed.approval.id, approval.id);
      } finally {
        await s.close();
      }
    });

    test('a receipt is refused "mismatch" when any one binding field differs, and stays usable for its own call', async () => {
      const s = await open();
      try {
        const call = paymentCall();
        const decision = consentDecision('confirm');
        const approval = await s.consent.request(call, decision);
        await approve(s, approval.id);
        const binding = bindingOf(call, decision);
        const altered: [keyof ConsentBinding, ConsentBinding, RegExp][] = [
          ['subscription', { ...binding, subscription: 'sub_2' }, /other subscription/],
          ['subject', { ...binding, subject: 'mallory' }, /other user/],
          ['subject', { ...binding, subject: null }, /other user/],
          ['tool', { ...binding, tool: 'updatePayment' }, /other tool/],
          ['argumentsHash', { ...binding, argumentsHash: 'f'.repeat(64) }, /other arguments/],
          ['policyVersion', { ...binding, policyVersion: 2 }, /other policy version/],
        ];
        for (const [field, other, message] of altered) {
          const outcome = await s.consent.redeem(other, approval.id);
          assert.equal(outcome.ok, false, field);
          assert.equal(!outcome.ok && outcome.reason, 'mismatch', field);
          assert.match(!outcome.ok ? outcome.message : '', message, field);
        }
        assert.ok((await s.consent.redeem(binding, approval.id)).ok, 'the real call still redeems');
      } finally {
        await s.close();
      }
    });

    test('an approved receipt not used before it expires is refused "expired"; an expired one cannot be approved', async () => {
      const s = await open(60);
      try {
        const call = paymentCall();
        const decision = consentDecision('confirm');
        const approval = await s.consent.request(call, decision);
        await approve(s, approval.id);
        s.advance(60);
        const outcome = await s.consent.redeem(bindingOf(call, decision), approval.id);
        assert.equal(!outcome.ok && outcome.reason, 'expired');
        assert.match(!outcome.ok ? outcome.message : '', /expired at 2026-08-01T10:01:00.000Z/);

        const late = await s.consent.request(paymentCall({ amount: '1700.00' }), decision);
        s.advance(61);
        await assert.rejects(approve(s, late.id), { code: 'APPROVAL_EXPIRED' });
        assert.equal((await s.consent.get(late.id))?.status, 'expired');
      } finally {
        await s.close();
      }
    });

    test('a rejected approval is refused "rejected" with who rejected it and why; it cannot be approved after', async () => {
      const s = await open();
      try {
        const call = paymentCall();
        const decision = consentDecision('confirm');
        const approval = await s.consent.request(call, decision);
        await s.db.transaction((tx) =>
          s.consent.decide(
            tx,
            { ...ALICE, name: 'alice@example.com' },
            approval.id,
            'rejected',
            'not mine',
          ),
        );
        const outcome = await s.consent.redeem(bindingOf(call, decision), approval.id);
        assert.equal(!outcome.ok && outcome.reason, 'rejected');
        assert.match(
          !outcome.ok ? outcome.message : '',
          /rejected by alice@example.com \(not mine\)/,
        );
        await assert.rejects(approve(s, approval.id), { code: 'APPROVAL_NOT_PENDING' });
      } finally {
        await s.close();
      }
    });

    test('an unknown id is refused "unknown"', async () => {
      const s = await open();
      try {
        const outcome = await s.consent.redeem(
          bindingOf(paymentCall(), consentDecision('confirm')),
          'apv_doesnotexist',
        );
        assert.equal(!outcome.ok && outcome.reason, 'unknown');
      } finally {
        await s.close();
      }
    });

    test('confirm: only the initiating user (same issuer and subject) decides', async () => {
      const s = await open();
      try {
        const approval = await s.consent.request(paymentCall(), consentDecision('confirm'));
        await assert.rejects(approve(s, approval.id, BOB), { code: 'APPROVAL_NOT_FOUND' });
        await assert.rejects(
          approve(s, approval.id, { ...ALICE, issuer: 'https://other-issuer.example' }),
          { code: 'APPROVAL_NOT_FOUND' },
        );
        await assert.rejects(approve(s, approval.id, { ...BOB, admin: true }), {
          code: 'NOT_APPROVER',
          message: /Only the user who made this call \(alice\) can confirm it/,
        });
        await approve(s, approval.id, ALICE);
        const after = await s.consent.get(approval.id);
        assert.equal(after?.status, 'approved');
        assert.equal(after?.decidedBy, 'alice');
      } finally {
        await s.close();
      }
    });

    test('approve (four-eyes): the initiator never decides, even holding the role; a holder of the role does', async () => {
      const s = await open();
      try {
        const approval = await s.consent.request(
          paymentCall({ amount: '15000.00' }),
          consentDecision('approve'),
        );
        await assert.rejects(approve(s, approval.id, { ...ALICE, roles: ['payments-approver'] }), {
          code: 'NOT_APPROVER',
          message: /someone else must approve it/,
        });
        await assert.rejects(approve(s, approval.id, ALICE), { code: 'NOT_APPROVER' });
        await assert.rejects(approve(s, approval.id, { ...BOB, roles: ['other-role'] }), {
          code: 'APPROVAL_NOT_FOUND',
        });
        // Who may decide lists it; the initiator does not (it is not theirs to decide).
        assert.deepEqual(
          (await s.consent.list(BOB)).map((a) => a.id),
          [approval.id],
        );
        assert.deepEqual(await s.consent.list(ALICE), []);
        await approve(s, approval.id, BOB);
        assert.equal((await s.consent.get(approval.id))?.decidedBy, 'bob');
        assert.deepEqual(await s.consent.list(BOB), [], 'no longer pending');
        assert.equal((await s.consent.list(BOB, 'approved')).length, 1);
      } finally {
        await s.close();
      }
    });

    test('an anonymous call cannot be confirmed by anyone', async () => {
      const s = await open();
      try {
        const approval = await s.consent.request(
          paymentCall({ subject: null }),
          consentDecision('confirm'),
        );
        await assert.rejects(approve(s, approval.id, { ...ALICE, admin: true }), {
          code: 'NOT_APPROVER',
          message: /without a signed-in user/,
        });
      } finally {
        await s.close();
      }
    });

    test('concurrent redeems of one receipt: exactly one wins', async () => {
      const s = await open();
      try {
        const call = paymentCall();
        const decision = consentDecision('confirm');
        const approval = await s.consent.request(call, decision);
        await approve(s, approval.id);
        const binding = bindingOf(call, decision);
        // Half by id, half by binding: both routes race for the same row.
        const outcomes = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            s.consent.redeem(binding, i % 2 === 0 ? approval.id : undefined),
          ),
        );
        assert.equal(outcomes.filter((o) => o.ok).length, 1, JSON.stringify(outcomes));
        for (const o of outcomes.filter((x) => !x.ok)) assert.equal(!o.ok && o.reason, 'used');
      } finally {
        await s.close();
      }
    });
  });
}
