// The service's payment statuses as ISO 20022 transaction status codes (ExternalPaymentTransactionStatus1Code,
// the codes a pain.002 customer payment status report carries), in one table (pure). Documented in
// docs/payments-notifications.md (docs/decisions.md, D-271).
import type { PaymentStatus } from './lifecycle.js';

export const ISO_TRANSACTION_STATUSES = ['ACCP', 'ACSP', 'ACSC', 'PDNG', 'RJCT', 'CANC'] as const;
export type IsoTransactionStatus = (typeof ISO_TRANSACTION_STATUSES)[number];

/**
 * INITIATED and SCHEDULED passed the customer-profile checks and wait for execution (ACCP); PENDING and
 * CONFIRMED are with the clearing side, settlement in process (ACSP); COMPLETED is settled (ACSC);
 * SUSPENDED waits for further checks (PDNG); FAILED is rejected (RJCT); RETURNED was settled and sent back
 * by the receiving side, which a status report shows as rejected with the return reason (RJCT);
 * CANCELLED was cancelled by its initiator (CANC).
 */
export const ISO_STATUS_OF: Readonly<Record<PaymentStatus, IsoTransactionStatus>> = {
  INITIATED: 'ACCP',
  SCHEDULED: 'ACCP',
  PENDING: 'ACSP',
  CONFIRMED: 'ACSP',
  SUSPENDED: 'PDNG',
  COMPLETED: 'ACSC',
  RETURNED: 'RJCT',
  FAILED: 'RJCT',
  CANCELLED: 'CANC',
};

export function isoStatusOf(status: PaymentStatus): IsoTransactionStatus {
  return ISO_STATUS_OF[status];
}

/**
 * A stored reason as an ISO 20022 status reason: a code of the external code list (four upper-case
 * letters or digits, such as AM04 or AC04) is a `code`; anything else the service stores (UPDATED, an
 * operator's longer code) is `proprietary`.
 */
export function isoReason(
  reason: string | null,
): { readonly code: string } | { readonly proprietary: string } | undefined {
  if (reason === null || reason === '') return undefined;
  return /^[A-Z0-9]{4}$/.test(reason) ? { code: reason } : { proprietary: reason };
}
