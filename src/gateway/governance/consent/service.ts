// Consent to governed calls (issue 25): the ConsentService the call path uses — request an approval for a
// call the policy wants consent for, redeem its single-use receipt when the call is retried — and the
// reading and deciding the approval page and the admin API build on (who may decide: who-decides.ts).
import type { FrozenConfig } from '../../../config/schema.js';
import { adminBaseUrl } from '../../../config/gateway-identity.js';
import type { Database, SqlExecutor } from '../../../shared/db/types.js';
import type { Logger } from '../../../shared/log/logger.js';
import type {
  Approval,
  ConsentBinding,
  ConsentService,
  GovernedCall,
  PolicyDecision,
  RedeemOutcome,
} from '../contracts.js';
import { refusalFor, unknownRefusal } from './refusals.js';
import { ApprovalStore } from './store.js';
import { ConsentError, type ApprovalFilter, type ApprovalRecord, type Approver } from './types.js';
import { ApprovalWebhook } from './webhook.js';
import { decisionRefusal, mayView } from './who-decides.js';

export const APPROVAL_PAGE_PATH = '/portal/approvals/';

export interface ConsentDeps {
  readonly db: Database;
  /** gateway.governance.approvals.ttlSeconds */
  readonly ttlSeconds: number;
  /** The admin listener's public base URL (approval pages live there). */
  readonly adminBaseUrl: string;
  readonly webhook?: ApprovalWebhook | undefined;
  readonly clock?: () => Date;
}

/** The contract's view of an approval (what an agent's client may see), without the call's details. */
export function contractApproval(record: ApprovalRecord): Approval {
  return {
    id: record.id,
    kind: record.kind,
    status: record.status,
    binding: record.binding,
    callId: record.callId,
    ruleId: record.ruleId,
    ...(record.approverRole === undefined ? {} : { approverRole: record.approverRole }),
    url: record.url,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    ...(record.decidedBy === undefined ? {} : { decidedBy: record.decidedBy }),
    ...(record.decidedAt === undefined ? {} : { decidedAt: record.decidedAt }),
  };
}

export function bindingOf(call: GovernedCall, decision: PolicyDecision): ConsentBinding {
  return {
    subscription: call.caller.subscription,
    subject: call.caller.subject,
    tool: call.tool.name,
    argumentsHash: call.argumentsHash,
    policyVersion: decision.policyVersion,
  };
}

export class Consent implements ConsentService {
  private readonly store: ApprovalStore;
  private readonly clock: () => Date;

  constructor(private readonly deps: ConsentDeps) {
    const base = deps.adminBaseUrl.replace(/\/+$/, '');
    this.store = new ApprovalStore((id) => `${base}${APPROVAL_PAGE_PATH}${encodeURIComponent(id)}`);
    this.clock = deps.clock ?? (() => new Date());
  }

  async request(call: GovernedCall, decision: PolicyDecision): Promise<Approval> {
    if (decision.effect !== 'confirm' && decision.effect !== 'approve')
      throw new Error(`consent is requested only for confirm or approve, not ${decision.effect}`);
    const kind = decision.effect;
    const binding = bindingOf(call, decision);
    const { record, created } = await this.deps.db.transaction(async (tx) => {
      const now = this.clock();
      const pending = await this.store.findPending(tx, binding, kind, now);
      if (pending !== null) return { record: pending, created: false };
      const expiresAt = new Date(now.getTime() + this.deps.ttlSeconds * 1000);
      return {
        record: await this.store.insert(tx, { call, decision, kind, createdAt: now, expiresAt }),
        created: true,
      };
    });
    if (created) this.deps.webhook?.notify(record);
    return contractApproval(record);
  }

  async redeem(
    binding: ConsentBinding,
    approvalId?: string,
    kind?: 'confirm' | 'approve',
  ): Promise<RedeemOutcome> {
    const { db } = this.deps;
    const now = this.clock();
    const used = await this.store.redeem(db, binding, approvalId, now, kind);
    if (used !== null) return { ok: true, approval: contractApproval(used) };
    const found =
      approvalId !== undefined
        ? await this.store.get(db, approvalId, now)
        : await this.store.newestFor(db, binding, now);
    if (found === null) return unknownRefusal(approvalId);
    if (kind !== undefined && found.kind !== kind)
      return {
        ok: false,
        reason: 'mismatch',
        message: `Approval ${found.id} is a ${found.kind === 'confirm' ? "user's confirmation" : 'four-eyes approval'}, but the rules now ask ${kind === 'confirm' ? "the user's own confirmation" : 'the approval of a second person'} for this call; call the tool again to request it.`,
        approval: contractApproval(found),
      };
    return refusalFor(found, binding, contractApproval);
  }

  /** One approval with its details; null when unknown. */
  get(id: string, ex: SqlExecutor = this.deps.db): Promise<ApprovalRecord | null> {
    return this.store.get(ex, id, this.clock());
  }

  /** One approval as `approver` may see it (APPROVAL_NOT_FOUND when they may not: it does not exist for them). */
  async view(approver: Approver, id: string): Promise<ApprovalRecord> {
    const approval = await this.get(id);
    if (approval === null || !mayView(approval, approver))
      throw new ConsentError('APPROVAL_NOT_FOUND', `no approval ${id}`);
    return approval;
  }

  /**
   * The approvals `approver` may decide (administrators: every one), newest first. `filter` defaults to
   * pending; for other states, the ones the approver may see.
   */
  async list(approver: Approver, filter: ApprovalFilter = 'pending'): Promise<ApprovalRecord[]> {
    const all = await this.store.list(this.deps.db, filter, this.clock());
    if (approver.admin) return all;
    return all.filter((a) =>
      filter === 'pending' ? decisionRefusal(a, approver) === null : mayView(a, approver),
    );
  }

  /**
   * Approves or rejects inside `tx` (the caller records the audit entry in the same transaction). Refused
   * with a ConsentError when the approver may not decide it or it is no longer pending.
   */
  async decide(
    tx: SqlExecutor,
    approver: Approver,
    id: string,
    decision: 'approved' | 'rejected',
    reason?: string,
  ): Promise<{ before: ApprovalRecord; after: ApprovalRecord }> {
    const now = this.clock();
    const before = await this.store.get(tx, id, now);
    if (before === null || !mayView(before, approver))
      throw new ConsentError('APPROVAL_NOT_FOUND', `no approval ${id}`);
    const refusal = decisionRefusal(before, approver);
    if (refusal !== null) throw new ConsentError('NOT_APPROVER', refusal);
    const changed = await this.store.decide(tx, id, {
      status: decision,
      by: approver,
      ...(reason === undefined || reason === '' ? {} : { reason }),
      at: now,
    });
    const after = await this.store.get(tx, id, now);
    if (!changed || after === null) throw notPending(after ?? before);
    return { before, after };
  }
}

function notPending(approval: ApprovalRecord): ConsentError {
  if (approval.status === 'expired')
    return new ConsentError(
      'APPROVAL_EXPIRED',
      `approval ${approval.id} expired at ${approval.expiresAt}; the agent must call the tool again to request a new one`,
    );
  return new ConsentError(
    'APPROVAL_NOT_PENDING',
    `approval ${approval.id} is already ${approval.status}${approval.decidedBy === undefined ? '' : ` (by ${approval.decidedByName ?? approval.decidedBy})`}`,
  );
}

export interface ConsentFactoryInput {
  readonly db: Database;
  readonly config: FrozenConfig;
  /** For the webhook's delivery failures; no webhook is sent without one. */
  readonly logger?: Logger | undefined;
  readonly clock?: () => Date;
}

/** The consent service of a gateway (the call path and the admin plane construct it the same way). */
export function createConsentService(input: ConsentFactoryInput): Consent {
  const settings = input.config.gateway.governance.approvals;
  const webhook =
    settings.webhook !== undefined && input.logger !== undefined
      ? new ApprovalWebhook({
          config: settings.webhook,
          logger: input.logger,
          ...(input.clock === undefined ? {} : { clock: input.clock }),
        })
      : undefined;
  return new Consent({
    db: input.db,
    ttlSeconds: settings.ttlSeconds,
    adminBaseUrl: adminBaseUrl(input.config),
    webhook,
    ...(input.clock === undefined ? {} : { clock: input.clock }),
  });
}
