// Deciding governed calls' approvals (issue 25) for the admin API and the approval page: who the signed-in
// person is comes from their verified token (the actor), what they may decide from consent's rule
// (governance/consent/who-decides.ts), and every decision is appended to the hash-chained audit log in the
// same transaction as the decision, with the call's id.
import type { Database } from '../../shared/db/types.js';
import type { Consent } from '../governance/consent/service.js';
import {
  ConsentError,
  type ApprovalFilter,
  type ApprovalRecord,
  type Approver,
} from '../governance/consent/types.js';
import type { Actor } from './actor.js';
import type { AuditSink } from './audit-sink.js';
import { AdminError } from './errors.js';

export interface ApprovalDecisionDeps {
  readonly db: Database;
  readonly consent: Consent;
  readonly audit: AuditSink;
}

/** The approver an actor is: a user by issuer, subject and roles; toolgate's own admin sees but holds no role. */
export function approverOf(actor: Actor): Approver {
  return {
    issuer: actor.issuer ?? '',
    subject: actor.subject,
    roles: actor.roles ?? [],
    ...(actor.name === undefined ? {} : { name: actor.name }),
    admin: actor.role === 'admin' || actor.role === 'system',
  };
}

export class ApprovalDecisions {
  constructor(private readonly deps: ApprovalDecisionDeps) {}

  async list(actor: Actor, status: ApprovalFilter = 'pending'): Promise<ApprovalRecord[]> {
    return this.deps.consent.list(approverOf(actor), status);
  }

  async get(actor: Actor, id: string): Promise<ApprovalRecord> {
    return translated(() => this.deps.consent.view(approverOf(actor), id));
  }

  approve(actor: Actor, id: string): Promise<ApprovalRecord> {
    const refusal = approvalChannelRefusal(actor);
    if (refusal !== null) return Promise.reject(new AdminError('NOT_APPROVER', refusal));
    return this.decide(actor, id, 'approved');
  }

  reject(actor: Actor, id: string, reason?: string): Promise<ApprovalRecord> {
    return this.decide(actor, id, 'rejected', reason);
  }

  private decide(
    actor: Actor,
    id: string,
    decision: 'approved' | 'rejected',
    reason?: string,
  ): Promise<ApprovalRecord> {
    return translated(() =>
      this.deps.db.transaction(async (tx) => {
        const { before, after } = await this.deps.consent.decide(
          tx,
          approverOf(actor),
          id,
          decision,
          reason,
        );
        await this.deps.audit.append(
          {
            actor,
            action: decision === 'approved' ? 'approval.approve' : 'approval.reject',
            target: { type: 'approval', id },
            before: { status: before.status },
            after: audited(after),
          },
          tx,
        );
        return after;
      }),
    );
  }
}

/**
 * Why `actor` may not approve from where they are, or null: only a person signed in on the portal through the
 * OpenID Connect provider approves. A bearer token (the admin API, the portal's token sign-in) is refused:
 * the admin plane verifies user tokens with the gateway's own identity settings, so the token an agent's MCP
 * client holds for its user would otherwise approve that user's calls (docs/decisions.md, D-309). Rejecting is not limited: it can only stop a call.
 */
export function approvalChannelRefusal(actor: Actor): string | null {
  return actor.via === 'oidc-session'
    ? null
    : 'Approvals are given only by a person signed in on the approval page (Sign in with OpenID Connect), never with a bearer token, which an agent could hold.';
}

/** The evidence of a decision: the call, its binding and rule, who decided and when. */
function audited(a: ApprovalRecord): Record<string, unknown> {
  return {
    status: a.status,
    kind: a.kind,
    callId: a.callId,
    tool: a.binding.tool,
    subscription: a.binding.subscription,
    initiator: a.binding.subject,
    argumentsHash: a.binding.argumentsHash,
    policyVersion: a.binding.policyVersion,
    ruleId: a.ruleId,
    approverRole: a.approverRole ?? null,
    decidedBy: a.decidedBy ?? null,
    decidedAt: a.decidedAt ?? null,
    reason: a.decisionReason ?? null,
    expiresAt: a.expiresAt,
  };
}

async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ConsentError)) throw error;
    switch (error.code) {
      case 'APPROVAL_NOT_FOUND':
        throw new AdminError('NOT_FOUND', error.message);
      case 'NOT_APPROVER':
        throw new AdminError('NOT_APPROVER', error.message);
      case 'APPROVAL_NOT_PENDING':
        throw new AdminError('APPROVAL_NOT_PENDING', error.message);
      case 'APPROVAL_EXPIRED':
        throw new AdminError('APPROVAL_EXPIRED', error.message);
    }
  }
}
