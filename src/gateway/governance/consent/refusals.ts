// Why a receipt could not be redeemed, in one sentence an agent can relay to its user (issue 25: "refused
// with a clear reason"). Pure.
import type { ConsentBinding, RedeemOutcome } from '../contracts.js';
import type { ApprovalRecord } from './types.js';

type Refused = Extract<RedeemOutcome, { ok: false }>;

const FIELD_NAMES: Readonly<Record<keyof ConsentBinding, string>> = {
  subscription: 'subscription',
  subject: 'user',
  tool: 'tool',
  argumentsHash: 'arguments',
  policyVersion: 'policy version (the rules changed since it was requested)',
};

/** The binding fields in which `approval` differs from `binding` (empty: it is for this call). */
export function bindingDifferences(approval: ApprovalRecord, binding: ConsentBinding): string[] {
  return (Object.keys(FIELD_NAMES) as (keyof ConsentBinding)[])
    .filter((key) => approval.binding[key] !== binding[key])
    .map((key) => FIELD_NAMES[key]);
}

/** The refusal for an approval that exists but could not be redeemed for `binding`. */
export function refusalFor(
  approval: ApprovalRecord,
  binding: ConsentBinding,
  contract: (a: ApprovalRecord) => Refused['approval'],
): Refused {
  const id = approval.id;
  const shown = contract(approval);
  const differences = bindingDifferences(approval, binding);
  if (differences.length > 0)
    return {
      ok: false,
      reason: 'mismatch',
      message: `Approval ${id} was given for a different call (other ${differences.join(', ')}); retry exactly the approved call, or call the tool again to request a new approval.`,
      approval: shown,
    };
  switch (approval.status) {
    case 'pending':
      return {
        ok: false,
        reason: 'pending',
        message: `Approval ${id} is still waiting for a decision at ${approval.url}; retry the same call once it is approved.`,
        approval: shown,
      };
    case 'rejected':
      return {
        ok: false,
        reason: 'rejected',
        message: `Approval ${id} was rejected${approval.decidedBy === undefined ? '' : ` by ${approval.decidedByName ?? approval.decidedBy}`}${approval.decisionReason === undefined ? '' : ` (${approval.decisionReason})`}, so this call will not be made.`,
        approval: shown,
      };
    case 'expired':
      return {
        ok: false,
        reason: 'expired',
        message: `Approval ${id} expired at ${approval.expiresAt} without being used; call the tool again to request a new approval.`,
        approval: shown,
      };
    case 'used':
      return {
        ok: false,
        reason: 'used',
        message: `Approval ${id} was already used${approval.usedAt === undefined ? '' : ` at ${approval.usedAt}`} and allows the call only once; call the tool again to request a new approval.`,
        approval: shown,
      };
    case 'approved':
      // Approved, unexpired, same binding, yet not consumed: another replica consumed it a moment ago.
      return {
        ok: false,
        reason: 'used',
        message: `Approval ${id} was just used by another call and allows the call only once; call the tool again to request a new approval.`,
        approval: shown,
      };
  }
}

export function unknownRefusal(approvalId: string | undefined): Refused {
  return {
    ok: false,
    reason: 'unknown',
    message:
      approvalId === undefined
        ? 'No approval exists for this call; call the tool again to request one.'
        : `No approval ${approvalId} exists; call the tool again to request one.`,
  };
}
