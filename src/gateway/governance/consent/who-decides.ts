// Who may see and decide an approval (issue 25, "Confirmation and approval over MCP"; docs/governance.md,
// "Four-eyes"). Pure: the approver comes from a verified token (the portal session or the admin API's
// bearer token), never from anything the agent's client sends.
//  - confirm: only the user on whose behalf the agent acted — the same issuer and subject as the call's token;
//  - approve: only someone holding the rule's role, and never that user (four-eyes).
import type { ApprovalRecord, Approver } from './types.js';

function isInitiator(approval: ApprovalRecord, approver: Approver): boolean {
  const { issuer, subject } = approval.initiator;
  // A call token without an issuer matches by subject alone here, so it can never count as "someone else".
  return (
    subject !== null &&
    subject === approver.subject &&
    (issuer === null || issuer === approver.issuer)
  );
}

/** Why `approver` may not decide `approval` (one sentence), or null when they may. */
export function decisionRefusal(approval: ApprovalRecord, approver: Approver): string | null {
  if (approval.kind === 'confirm') {
    if (approval.initiator.subject === null)
      return 'This call was made without a signed-in user, so nobody can confirm it.';
    const { issuer, subject } = approval.initiator;
    if (subject !== approver.subject || issuer === null || issuer !== approver.issuer)
      return `Only the user who made this call (${subject}) can confirm it.`;
    return null;
  }
  const role = approval.approverRole ?? '';
  if (isInitiator(approval, approver))
    return 'You made this call, so someone else must approve it (four-eyes).';
  if (role === '' || !approver.roles.includes(role))
    return `Approving this call needs the role ${role === '' ? '(none configured)' : role}, which you do not hold.`;
  return null;
}

/** Whether `approver` may see the approval: the initiator, whoever may decide it, an administrator. */
export function mayView(approval: ApprovalRecord, approver: Approver): boolean {
  return (
    approver.admin ||
    isInitiator(approval, approver) ||
    decisionRefusal(approval, approver) === null
  );
}
