// The governed step of a tools/call (issue 25), run after admission, the security class and argument
// validation and before the backend, only while some rule is in force (the call path checks
// `active()` first, so a rule set that matches nothing costs nothing):
//
//   build the GovernedCall → the policy decides → deny: a tool error, the backend is not called
//                                              → confirm/approve: consent (a receipt bound to this call)
//                                              → budgets: reserve the amount in every budget
//   → the backend → release the reservation if the backend refused the call → the evidence of its answer.
//
// How a call that needs consent is answered depends on what the client can do (docs/decisions.md, D-248): 2026-07-28 with the elicitation capability: `input_required` with a URL-mode
// elicitation and a signed requestState; 2025-11-25 with `elicitation.url`: the URLElicitationRequiredError
// (-32042); every other client: a tool error naming the approval page, the approval's id and expiry, after
// which the same call is retried and redeems the approval by its binding.
import type { GatewayError } from '../errors.js';
import type { Caller } from '../caller.js';
import type { Tool } from '../catalogue/types.js';
import type { CallToolResult } from '../mcp/tool-result.js';
import { askToOpenUrl, declinedInClient, type ElicitationChannel } from '../mcp/url-elicitation.js';
import { buildGovernedCall, moneyKey, readPointer, type MoneyConverter } from './call.js';
import type { MoneyLocation } from '../../config/gateway-mcp.js';
import type {
  Approval,
  BudgetLedger,
  BudgetReservation,
  ConsentBinding,
  ConsentService,
  GovernedCall,
  Governor,
  PolicyDecision,
  ReserveOutcome,
} from './contracts.js';
import type { EvidenceSink } from './evidence.js';
import type { RequestStateSigner } from './request-state.js';

/** The `_meta` key of the fallback result's approval (id, URL, expiry). */
export const META_APPROVAL = 'io.toolgate/approval';
/** The key of the one input request of an `input_required` answer. */
export const APPROVAL_INPUT_KEY = 'toolgate-approval';

export interface GovernanceParts {
  /** The rule set in force (policy/live.ts), read per call. */
  readonly governor: { current(): Governor };
  readonly consent: ConsentService;
  readonly ledger: BudgetLedger;
  readonly evidence: EvidenceSink;
  readonly signer: RequestStateSigner;
  readonly convert: MoneyConverter;
  /** Money-moving tools, by moneyKey(tool). */
  readonly money: ReadonlyMap<string, MoneyLocation>;
  readonly clock?: (() => Date) | undefined;
}

/** The parts built elsewhere (policy, consent, budgets): the gateway adds money, signer and evidence. */
export type GovernanceServices = Pick<
  GovernanceParts,
  'governor' | 'consent' | 'ledger' | 'convert'
> &
  Partial<Pick<GovernanceParts, 'evidence' | 'clock'>>;

/** How this request can carry consent, and what it carries back on a retry (mcp/url-elicitation.ts). */
export type ConsentChannel = ElicitationChannel;

/** A call that may go on to its backend, and what to settle once the backend has answered. */
export interface Proceed {
  readonly kind: 'proceed';
  readonly call: GovernedCall;
  readonly decision: PolicyDecision;
  readonly reservation: BudgetReservation | null;
  /** Whether the decision was recorded (a rule matched): its outcome is recorded too. */
  readonly evidenced: boolean;
  /** The receipt redeemed for this call, if consent was needed (its call id ties the story together). */
  readonly receipt: Approval | null;
  readonly money: MoneyLocation | undefined;
}

export type Gate =
  | Proceed
  /** A tool result instead of the backend's (deny, consent needed or refused, budget refused). */
  | { readonly kind: 'result'; readonly result: CallToolResult }
  /** A 2026-07-28 `input_required` result. */
  | { readonly kind: 'input_required'; readonly result: Record<string, unknown> }
  /** A JSON-RPC error (2025-11-25 URL elicitation required). */
  | { readonly kind: 'error'; readonly error: GatewayError };

/** What the backend answered: an HTTP status, or a failure (timeout, connection). */
export interface BackendAnswer {
  readonly status?: number | undefined;
  /** The failure's kind (upstream/backend-client.ts): `unavailable` means nothing was sent. */
  readonly failure?: string | undefined;
  /** The parsed success body, when JSON (where the payment's reference is read). */
  readonly body?: Record<string, unknown> | undefined;
  /**
   * Whether the call was refused before anything was carried out, where the caller knows better than the
   * status or failure say (an upstream MCP server: a JSON-RPC error, refused credentials, an open circuit).
   */
  readonly refused?: boolean | undefined;
}

export class Governance {
  private readonly clock: () => Date;

  constructor(private readonly parts: GovernanceParts) {
    this.clock = parts.clock ?? (() => new Date());
  }

  /** False while no rule can match any call: the call path then skips governance entirely. */
  active(): boolean {
    return !this.parts.governor.current().empty;
  }

  async gate(
    caller: Caller,
    tool: Tool,
    args: Readonly<Record<string, unknown>>,
    sent: Readonly<Record<string, unknown>>,
    channel: ConsentChannel,
  ): Promise<Gate> {
    const governor = this.parts.governor.current();
    const money = this.parts.money.get(moneyKey(tool));
    const built = buildGovernedCall({
      caller,
      tool,
      arguments: args,
      sent,
      money,
      convert: this.parts.convert,
      now: this.clock(),
    });
    if (!built.ok) return { kind: 'result', result: toolError(built.message) };
    const call = built.call;
    const decision = governor.decide(call);
    const evidenced = decision.ruleId !== null || decision.budgets.length > 0;
    if (evidenced) await this.record(call, 'governance.decision', decisionEvidence(call, decision));

    if (decision.effect === 'deny') {
      const message = decision.message ?? 'A rule of this gateway does not allow this call.';
      return {
        kind: 'result',
        result: toolError(
          `${message} (rule ${decision.ruleId ?? '?'}; the backend was not called)`,
          {
            governance: { effect: 'deny', rule: decision.ruleId, callId: call.callId },
          },
        ),
      };
    }
    let receipt: Approval | null = null;
    if (decision.effect === 'confirm' || decision.effect === 'approve') {
      const consent = await this.consent(call, decision, channel);
      if ('kind' in consent) return consent;
      receipt = consent.receipt;
    }
    let reservation: BudgetReservation | null = null;
    if (decision.budgets.length > 0) {
      const reserved = await this.parts.ledger.reserve(call, decision.budgets);
      if (!reserved.ok) return this.budgetRefused(call, reserved);
      reservation = reserved.reservation;
      await this.record(call, 'governance.budget.reserved', {
        ...storyOf(receipt),
        reservation: reservation.id,
        amountMinor: reservation.amountMinor,
        budgets: reservation.limits.map((l) => l.ruleId),
      });
    }
    return { kind: 'proceed', call, decision, reservation, evidenced, money, receipt };
  }

  /**
   * After the backend: a call the backend refused (an error status), or that never reached it (no
   * connection: nothing was sent), gives its reservation back; one that may have been carried out (a
   * timeout, a lost connection) stays counted, the safe side for money (docs/decisions.md,
   * D-255). The answer becomes evidence.
   */
  async settle(proceed: Proceed, answer: BackendAnswer): Promise<void> {
    const refused =
      answer.refused ??
      (answer.status === undefined
        ? answer.failure === 'unavailable'
        : answer.status < 200 || answer.status >= 300);
    if (refused && proceed.reservation !== null)
      await this.parts.ledger.release(proceed.call, proceed.reservation);
    if (!proceed.evidenced) return;
    const reference =
      !refused && proceed.money?.reference !== undefined && answer.body !== undefined
        ? readPointer(answer.body, proceed.money.reference)
        : undefined;
    await this.record(proceed.call, 'governance.backend.answer', {
      ...storyOf(proceed.receipt),
      ...(answer.status === undefined ? { failure: answer.failure ?? 'no answer' } : {}),
      ...(answer.status === undefined ? {} : { status: answer.status }),
      ...(typeof reference === 'string' || typeof reference === 'number'
        ? { reference: String(reference) }
        : {}),
      ...(proceed.reservation === null
        ? {}
        : { reservation: proceed.reservation.id, released: refused }),
    });
  }

  /**
   * Consent for a call that needs it: null when a receipt bound to exactly this call was redeemed (the
   * call goes on), else the answer that asks for consent or says why the receipt was refused.
   */
  private async consent(
    call: GovernedCall,
    decision: PolicyDecision,
    channel: ConsentChannel,
  ): Promise<Gate | { readonly receipt: Approval }> {
    // Only a receipt of the kind the rules ask now is redeemed (review of issue 25).
    const kind = decision.effect === 'approve' ? 'approve' : 'confirm';
    const binding: ConsentBinding = {
      subscription: call.caller.subscription,
      subject: call.caller.subject,
      tool: call.tool.name,
      argumentsHash: call.argumentsHash,
      policyVersion: decision.policyVersion,
    };
    if (channel.requestState !== undefined) {
      const checked = this.parts.signer.verify(channel.requestState, this.clock().getTime());
      if (!checked.ok)
        return this.refuse(
          call,
          checked.reason,
          checked.reason === 'expired'
            ? 'The approval for this call has expired; call the tool again to ask for a new one.'
            : 'The requestState of this retry is not one this gateway issued, or it was altered; call the tool again without it to ask for approval.',
        );
      const state = checked.state;
      const bound = state.binding;
      if (
        bound.subscription !== binding.subscription ||
        bound.subject !== binding.subject ||
        bound.tool !== binding.tool ||
        bound.argumentsHash !== binding.argumentsHash
      )
        return this.refuse(
          call,
          'mismatch',
          'The approval was given for another call (other tool, arguments or caller); it does not cover this one. Call the tool again to ask for approval of this call.',
          state.approvalId,
        );
      if (bound.policyVersion !== binding.policyVersion)
        return this.refuse(
          call,
          'policy-changed',
          `The gateway's rules changed between the request for approval (version ${bound.policyVersion}) and this retry (version ${binding.policyVersion}); call the tool again to ask for approval under the rules in force.`,
          state.approvalId,
        );
      if (declinedInClient(channel.inputResponses, APPROVAL_INPUT_KEY))
        return this.refuse(
          call,
          'declined',
          'The user declined to open the approval page, so the call was not made.',
          state.approvalId,
        );
      const outcome = await this.parts.consent.redeem(binding, state.approvalId, kind);
      if (outcome.ok) return this.redeemed(call, outcome.approval);
      if (outcome.reason === 'pending' && outcome.approval !== undefined)
        return this.ask(call, decision, outcome.approval, channel, binding);
      return this.refuse(call, outcome.reason, outcome.message, state.approvalId);
    }
    const outcome = await this.parts.consent.redeem(binding, undefined, kind);
    if (outcome.ok) return this.redeemed(call, outcome.approval);
    if (outcome.reason === 'pending' && outcome.approval !== undefined)
      return this.ask(call, decision, outcome.approval, channel, binding);
    if (outcome.reason === 'rejected')
      return this.refuse(call, outcome.reason, outcome.message, outcome.approval?.id);
    // None yet for this binding (or only expired or used ones): a new approval for this call.
    const approval = await this.parts.consent.request(call, decision);
    await this.record(call, 'governance.consent.requested', {
      approval: approval.id,
      kind: approval.kind,
      url: approval.url,
      expiresAt: approval.expiresAt,
      rule: decision.ruleId,
      policyVersion: decision.policyVersion,
    });
    return this.ask(call, decision, approval, channel, binding);
  }

  private async redeemed(
    call: GovernedCall,
    approval: Approval,
  ): Promise<{ readonly receipt: Approval }> {
    await this.record(call, 'governance.consent.redeemed', {
      ...storyOf(approval),
      receipt: approval.id,
      kind: approval.kind,
      decidedBy: approval.decidedBy ?? null,
      decidedAt: approval.decidedAt ?? null,
      policyVersion: approval.binding.policyVersion,
    });
    return { receipt: approval };
  }

  /** The answer that asks for consent, in the form the client understands. */
  private ask(
    call: GovernedCall,
    decision: PolicyDecision,
    approval: Approval,
    channel: ConsentChannel,
    binding: ConsentBinding,
  ): Gate {
    const who =
      approval.kind === 'approve'
        ? `someone with the role ${approval.approverRole ?? decision.approverRole ?? 'approver'} (not you) must approve it`
        : 'you must confirm it';
    const reason = decision.message ?? 'A rule of this gateway requires consent for this call';
    const message = `${reason.replace(/[.\s]+$/, '')}: ${who} at ${approval.url} before ${approval.expiresAt}.`;
    const summary = approvalSummary(approval);
    return askToOpenUrl(channel, {
      elicitation: { elicitationId: approval.id, url: approval.url, message },
      inputKey: APPROVAL_INPUT_KEY,
      requestState: () =>
        this.parts.signer.sign({
          approvalId: approval.id,
          callId: call.callId,
          binding,
          expiresAt: Date.parse(approval.expiresAt),
        }),
      meta: { [META_APPROVAL]: summary },
      errorMessage: `This call needs approval: ${who}, then retry the same call.`,
      errorData: { approval: summary },
      fallbackText: `${message.replace(/\.$/, '')}, then retry exactly the same call (approval ${approval.id}; the backend was not called).`,
      fallbackStructured: { approval: summary },
    });
  }

  private async refuse(
    call: GovernedCall,
    reason: string,
    message: string,
    approval?: string | undefined,
  ): Promise<Gate> {
    await this.record(call, 'governance.consent.refused', {
      reason,
      ...(approval === undefined ? {} : { approval }),
    });
    return {
      kind: 'result',
      result: toolError(`${message} (the backend was not called)`, {
        governance: { consent: 'refused', reason, callId: call.callId, approval: approval ?? null },
      }),
    };
  }

  private async budgetRefused(
    call: GovernedCall,
    refused: Extract<ReserveOutcome, { ok: false }>,
  ): Promise<Gate> {
    const { limit, remainingMinor, resetsAt } = refused;
    const remaining = formatMinor(remainingMinor, limit.currency);
    const per = limit.period === 'day' ? 'daily' : 'monthly';
    const whose = limit.scope === 'user' ? 'your' : "this subscription's";
    const text = `This call would exceed ${whose} ${per} budget "${limit.ruleId}" of ${formatMinor(limit.limitMinor, limit.currency)} ${limit.currency}: ${remaining} ${limit.currency} remain until it resets at ${resetsAt} (the backend was not called).`;
    await this.record(call, 'governance.budget.refused', {
      budget: limit.ruleId,
      scope: limit.scope,
      period: limit.period,
      limitMinor: limit.limitMinor,
      remainingMinor,
      resetsAt,
    });
    return {
      kind: 'result',
      result: toolError(text, {
        budget: {
          rule: limit.ruleId,
          scope: limit.scope,
          period: limit.period,
          currency: limit.currency,
          limit: formatMinor(limit.limitMinor, limit.currency),
          remaining,
          resetsAt,
        },
      }),
    };
  }

  private record(
    call: GovernedCall,
    action: string,
    details: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    return this.parts.evidence.record(call.callId, action, details);
  }
}

function decisionEvidence(call: GovernedCall, decision: PolicyDecision): Record<string, unknown> {
  return {
    effect: decision.effect,
    rule: decision.ruleId,
    policyVersion: decision.policyVersion,
    matched: decision.trace.filter((t) => t.matched).map((t) => t.ruleId),
    budgets: decision.budgets.map((b) => b.ruleId),
    tool: call.tool.name,
    backend: call.tool.backend,
    argumentsHash: call.argumentsHash,
    caller: {
      application: call.caller.application,
      subscription: call.caller.subscription,
      environment: call.caller.environment,
      subject: call.caller.subject,
    },
    ...(call.money === undefined ? {} : { money: call.money }),
    at: call.at.toISOString(),
  };
}

/**
 * A retry that redeemed a receipt names the call that asked for it (`approvalCallId`), so the audit query
 * `?call=<that call>` follows the story from the request for consent to the backend's answer.
 */
function storyOf(receipt: Approval | null): Record<string, unknown> {
  return receipt === null ? {} : { approvalCallId: receipt.callId };
}

function approvalSummary(approval: Approval): Record<string, unknown> {
  return {
    id: approval.id,
    kind: approval.kind,
    status: approval.status,
    url: approval.url,
    expiresAt: approval.expiresAt,
  };
}

/** Minor units as a decimal amount in the currency's own minor unit (EUR 2 decimals, JPY none). */
function formatMinor(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    // An unknown code: two decimals.
  }
  const sign = minor < 0 ? '-' : '';
  const text = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  return digits === 0
    ? `${sign}${text}`
    : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

function toolError(text: string, structured?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    isError: true,
    ...(structured === undefined ? {} : { structuredContent: structured }),
  };
}
