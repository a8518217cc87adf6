// The ISO 20022 payment status (ExternalPaymentTransactionStatus1Code) each status change records, and
// the status reason codes (ExternalStatusReason1Code) the engine rejects with (pure; decision: ISO 20022
// codes in the history).
import type { PaymentStatus } from '../domain/lifecycle.js';

/** ISO 20022 transaction status of the status reached; undefined where pain.002 has none (RETURNED). */
export const ISO_STATUS_OF: Readonly<Partial<Record<PaymentStatus, string>>> = {
  INITIATED: 'ACTC', // accepted technical validation
  SCHEDULED: 'ACTC',
  PENDING: 'ACSP', // accepted, settlement in process (debited, submitted)
  CONFIRMED: 'ACSP',
  SUSPENDED: 'PDNG',
  COMPLETED: 'ACSC', // accepted, settlement completed
  FAILED: 'RJCT',
  CANCELLED: 'CANC',
};

/** Reason codes of the engine's rejections. */
export const REJECT_REASONS = {
  /** Insufficient funds in the payer account (in its currency) at execution. */
  AM04: 'insufficient funds',
  /** The payer or the payee account at this bank is closed. */
  AC04: 'closed account number',
  /** The payer account is not an account of the payment's owner (any longer). */
  AC01: 'incorrect account number',
  /** No exchange rate to convert the amount into the payer account's currency. */
  AM03: 'currency not allowed (no rate to convert it)',
} as const;
export type RejectReason = keyof typeof REJECT_REASONS;
