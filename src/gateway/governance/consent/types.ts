// What consent keeps about one approval beyond the shared contract (contracts.ts): who initiated the call,
// what the approver is shown, and how it was decided. The admin plane and the approval page read these.
import type { Approval, ApprovalStatus, GovernedMoney } from '../contracts.js';

/** The call as the approver sees it. */
export interface ApprovalDetails {
  readonly application: string;
  readonly environment: string;
  readonly backend: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly money?: GovernedMoney | undefined;
  /** The deciding rule's message. */
  readonly message?: string | undefined;
}

export interface ApprovalRecord extends Approval {
  /** Whose call it is: the token issuer (null when the caller's token named none) and subject. */
  readonly initiator: { readonly issuer: string | null; readonly subject: string | null };
  readonly details: ApprovalDetails;
  readonly decidedByName?: string | undefined;
  readonly decisionReason?: string | undefined;
  readonly usedAt?: string | undefined;
}

/** Who decides on the approval page or through the admin API (from their verified token's claims). */
export interface Approver {
  readonly issuer: string;
  readonly subject: string;
  /** The values of the role claim (admin.roleClaim). */
  readonly roles: readonly string[];
  readonly name?: string | undefined;
  /** An administrator sees every approval (deciding still follows the approval's rule). */
  readonly admin: boolean;
}

export type ApprovalFilter = ApprovalStatus | 'all';

/** The one error type of consent's deciding side (docs/errors.md, "Approvals"). */
export type ConsentErrorCode =
  'APPROVAL_NOT_FOUND' | 'APPROVAL_NOT_PENDING' | 'APPROVAL_EXPIRED' | 'NOT_APPROVER';

export class ConsentError extends Error {
  constructor(
    readonly code: ConsentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConsentError';
  }
}
