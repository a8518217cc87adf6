// Governed actions: the shapes the parts of governance share (issue 25). One tools/call, after admission
// and argument validation and before the backend, becomes a GovernedCall; the policy (governance/policy)
// decides on it; consent (governance/consent) and money budgets (governance/budgets) act on the decision;
// the call path (mcp/tool-calls.ts) runs them in that order and records the evidence.
// Only types live here, so that each part can be built and tested on its own.
import type { SecurityClass, ToolAnnotations } from '../catalogue/types.js';

/** An amount of money the call moves, as stated and converted to the configured base currency. */
export interface GovernedMoney {
  /** The amount as the call states it (a decimal string, e.g. "1500.00"). */
  readonly amount: string;
  /** ISO 4217 code as the call states it. */
  readonly currency: string;
  /** The configured base currency (ISO 4217). */
  readonly baseCurrency: string;
  /** The amount converted to the base currency at the configured rate, in its minor units (an integer). */
  readonly baseMinor: number;
}

/** One tools/call as governance sees it. */
export interface GovernedCall {
  /** Unique per tools/call attempt (a UUID); every audit entry about the call carries it. */
  readonly callId: string;
  readonly tool: {
    readonly name: string;
    readonly backend: string;
    readonly securityClass: SecurityClass;
    readonly annotations: ToolAnnotations;
  };
  /** The arguments as the agent sent them (validated against the tool's inputSchema). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Hex SHA-256 of the canonical JSON (RFC 8785) of `arguments`: what consent is bound to. */
  readonly argumentsHash: string;
  readonly caller: {
    readonly application: string;
    readonly subscription: string;
    readonly environment: string;
    /** The verified user's subject; null for an anonymous caller. */
    readonly subject: string | null;
    readonly claims: Readonly<Record<string, unknown>>;
    readonly scopes: readonly string[];
  };
  readonly at: Date;
  /** Present for tools that move money (the amount found in the arguments). */
  readonly money?: GovernedMoney | undefined;
}

/** A budget a matching `budget` rule imposes: a cumulative limit in base-currency minor units. */
export interface BudgetLimit {
  readonly ruleId: string;
  readonly scope: 'user' | 'subscription';
  readonly period: 'day' | 'month';
  readonly limitMinor: number;
  readonly currency: string;
}

/**
 * What the policy decides for one call. Rules are evaluated in order; the consent effect is the strongest
 * of the matching rules (deny > approve > confirm > allow; no matching rule: allow), and every matching
 * `budget` rule adds its limit.
 */
export interface PolicyDecision {
  readonly effect: 'allow' | 'deny' | 'confirm' | 'approve';
  /** The rule that decided the effect; null when no consent rule matched. */
  readonly ruleId: string | null;
  /** The version of the rule set that decided (consent is bound to it). */
  readonly policyVersion: number;
  /** For deny, confirm and approve: the rule's message (what the agent and the approver see). */
  readonly message?: string | undefined;
  /** For approve: the role the approver must hold. */
  readonly approverRole?: string | undefined;
  readonly budgets: readonly BudgetLimit[];
  /** Why: each rule evaluated and whether it matched (the dry run shows it). */
  readonly trace: readonly {
    readonly ruleId: string;
    readonly matched: boolean;
    readonly error?: string;
  }[];
}

/** The rule set in force on this replica (it changes without a restart). */
export interface Governor {
  readonly version: number;
  /** True when no rule can match any call (the call path then skips governance entirely). */
  readonly empty: boolean;
  decide(call: GovernedCall): PolicyDecision;
}

/** The binding a consent receipt is for: a retried call must match all of it. */
export interface ConsentBinding {
  readonly subscription: string;
  readonly subject: string | null;
  readonly tool: string;
  readonly argumentsHash: string;
  readonly policyVersion: number;
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'used';

/** A pending or decided request for consent to one call. */
export interface Approval {
  readonly id: string;
  readonly kind: 'confirm' | 'approve';
  readonly status: ApprovalStatus;
  readonly binding: ConsentBinding;
  readonly callId: string;
  readonly ruleId: string | null;
  readonly approverRole?: string | undefined;
  /** The approval page (absolute URL on the admin listener). */
  readonly url: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly decidedBy?: string | undefined;
  readonly decidedAt?: string | undefined;
}

export type RedeemOutcome =
  | { readonly ok: true; readonly approval: Approval }
  | {
      readonly ok: false;
      readonly reason: 'unknown' | 'pending' | 'rejected' | 'expired' | 'used' | 'mismatch';
      /** One sentence an agent can relay. */
      readonly message: string;
      readonly approval?: Approval | undefined;
    };

/** The store of approvals and their single-use receipts. */
export interface ConsentService {
  /** Records a pending approval for the call (and notifies approvers for `approve`). */
  request(call: GovernedCall, decision: PolicyDecision): Promise<Approval>;
  /**
   * Consumes the receipt of an approved approval bound to exactly this call: by id when the client carries
   * one (requestState, _meta), else the newest approved unused one with the same binding. Atomic and
   * single-use across replicas. With `kind`, only a receipt of that kind: a confirmation never stands in for
   * a four-eyes approval, nor the reverse.
   */
  redeem(
    binding: ConsentBinding,
    approvalId?: string,
    kind?: 'confirm' | 'approve',
  ): Promise<RedeemOutcome>;
}

/** A reservation against every budget of a call, released when the backend refuses the call. */
export interface BudgetReservation {
  readonly id: string;
  readonly amountMinor: number;
  readonly limits: readonly BudgetLimit[];
}

export type ReserveOutcome =
  | { readonly ok: true; readonly reservation: BudgetReservation }
  | {
      readonly ok: false;
      readonly limit: BudgetLimit;
      readonly remainingMinor: number;
      /** ISO timestamp at which the budget's window resets. */
      readonly resetsAt: string;
    };

/** Money budgets, exact across replicas on the same store as the quotas (memory or Redis). */
export interface BudgetLedger {
  reserve(call: GovernedCall, limits: readonly BudgetLimit[]): Promise<ReserveOutcome>;
  release(call: GovernedCall, reservation: BudgetReservation): Promise<void>;
}
