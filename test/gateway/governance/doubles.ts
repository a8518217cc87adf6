// Test doubles of the parts of governance other modules build (policy, consent, budgets), each keeping to
// the contract in src/gateway/governance/contracts.ts, for tests of the governed call path on its own.
import { randomUUID } from 'node:crypto';
import type {
  Approval,
  BudgetLedger,
  BudgetLimit,
  BudgetReservation,
  ConsentBinding,
  ConsentService,
  GovernedCall,
  GovernedMoney,
  Governor,
  PolicyDecision,
  RedeemOutcome,
  ReserveOutcome,
} from '../../../src/gateway/governance/contracts.js';

export interface Rule {
  readonly id: string;
  readonly effect: 'deny' | 'confirm' | 'approve' | 'budget';
  readonly when: (call: GovernedCall) => boolean;
  readonly message?: string;
  readonly limit?: Omit<BudgetLimit, 'ruleId'>;
}

const STRENGTH = { allow: 0, confirm: 1, approve: 2, deny: 3 } as const;

/** A governor over plain functions; `rules` may be replaced (a new version) between calls. */
export class FakeGovernor {
  version = 1;
  constructor(public rules: readonly Rule[]) {}

  replace(rules: readonly Rule[]): void {
    this.rules = rules;
    this.version += 1;
  }

  current(): Governor {
    const { rules, version } = this;
    return {
      version,
      empty: rules.length === 0,
      decide: (call: GovernedCall): PolicyDecision => {
        let effect: PolicyDecision['effect'] = 'allow';
        let decider: Rule | null = null;
        const budgets: BudgetLimit[] = [];
        const trace = rules.map((rule) => {
          const matched = rule.when(call);
          if (matched && rule.effect === 'budget' && rule.limit)
            budgets.push({ ruleId: rule.id, ...rule.limit });
          else if (
            matched &&
            rule.effect !== 'budget' &&
            STRENGTH[rule.effect] > STRENGTH[effect]
          ) {
            effect = rule.effect;
            decider = rule;
          }
          return { ruleId: rule.id, matched };
        });
        const chosen = decider as Rule | null;
        return {
          effect,
          ruleId: chosen?.id ?? null,
          policyVersion: version,
          message: chosen?.message,
          approverRole: chosen?.effect === 'approve' ? 'payments-approver' : undefined,
          budgets,
          trace,
        };
      },
    };
  }
}

/** Approvals in memory; the test decides them as the approval page would. */
export class FakeConsent implements ConsentService {
  readonly approvals = new Map<string, Approval>();
  requests = 0;
  constructor(private readonly ttlMs = 600_000) {}

  async request(call: GovernedCall, decision: PolicyDecision): Promise<Approval> {
    this.requests += 1;
    const id = randomUUID();
    const now = Date.now();
    const approval: Approval = {
      id,
      kind: decision.effect === 'approve' ? 'approve' : 'confirm',
      status: 'pending',
      binding: {
        subscription: call.caller.subscription,
        subject: call.caller.subject,
        tool: call.tool.name,
        argumentsHash: call.argumentsHash,
        policyVersion: decision.policyVersion,
      },
      callId: call.callId,
      ruleId: decision.ruleId,
      approverRole: decision.approverRole,
      url: `http://127.0.0.1:9/portal/approvals/${id}`,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.ttlMs).toISOString(),
    };
    this.approvals.set(id, approval);
    return approval;
  }

  decide(id: string, status: 'approved' | 'rejected' | 'expired', by = 'alice'): void {
    const approval = this.approvals.get(id);
    if (!approval) throw new Error(`no approval ${id}`);
    this.approvals.set(id, {
      ...approval,
      status,
      decidedBy: by,
      decidedAt: new Date().toISOString(),
    });
  }

  async redeem(binding: ConsentBinding, approvalId?: string): Promise<RedeemOutcome> {
    let approval: Approval | undefined;
    if (approvalId !== undefined) approval = this.approvals.get(approvalId);
    else
      approval = [...this.approvals.values()]
        .reverse()
        .find((a) => sameBinding(a.binding, binding) && a.status !== 'used');
    if (!approval) return { ok: false, reason: 'unknown', message: 'No approval for this call.' };
    if (!sameBinding(approval.binding, binding))
      return {
        ok: false,
        reason: 'mismatch',
        message: 'The approval is for another call.',
        approval,
      };
    if (approval.status === 'approved') {
      const used: Approval = { ...approval, status: 'used' };
      this.approvals.set(approval.id, used);
      return { ok: true, approval: { ...approval } };
    }
    const messages = {
      pending: 'The approval is still pending.',
      rejected: 'The approval was rejected.',
      expired: 'The approval has expired.',
      used: 'The approval was already used.',
    } as const;
    const reason = approval.status;
    return { ok: false, reason, message: messages[reason], approval };
  }
}

function sameBinding(a: ConsentBinding, b: ConsentBinding): boolean {
  return (
    a.subscription === b.subscription &&
    a.subject === b.subject &&
    a.tool === b.tool &&
    a.argumentsHash === b.argumentsHash &&
    a.policyVersion === b.policyVersion
  );
}

/** Budgets in memory: one running total per budget rule. */
export class FakeLedger implements BudgetLedger {
  readonly spent = new Map<string, number>();
  released = 0;

  async reserve(call: GovernedCall, limits: readonly BudgetLimit[]): Promise<ReserveOutcome> {
    const amount = call.money?.baseMinor ?? 0;
    for (const limit of limits) {
      const spent = this.spent.get(limit.ruleId) ?? 0;
      if (spent + amount > limit.limitMinor)
        return {
          ok: false,
          limit,
          remainingMinor: limit.limitMinor - spent,
          resetsAt: '2026-11-27T00:00:00.000Z',
        };
    }
    for (const limit of limits)
      this.spent.set(limit.ruleId, (this.spent.get(limit.ruleId) ?? 0) + amount);
    return { ok: true, reservation: { id: randomUUID(), amountMinor: amount, limits } };
  }

  async release(_call: GovernedCall, reservation: BudgetReservation): Promise<void> {
    this.released += 1;
    for (const limit of reservation.limits)
      this.spent.set(limit.ruleId, (this.spent.get(limit.ruleId) ?? 0) - reservation.amountMinor);
  }
}

/** EUR at 1, USD at 0.9 EUR; two decimals. */
export function fakeConvert(amount: string, currency: string): GovernedMoney | { error: string } {
  const rate = currency === 'EUR' ? 1 : currency === 'USD' ? 0.9 : undefined;
  if (rate === undefined) return { error: `no rate for ${currency}` };
  const value = Number(amount);
  if (!Number.isFinite(value)) return { error: `not an amount: ${amount}` };
  return { amount, currency, baseCurrency: 'EUR', baseMinor: Math.round(value * rate * 100) };
}
