// The ISO 20022 status reason codes (ExternalStatusReason1Code) the engine rejects with (pure; decision:
// ISO 20022 codes in the history). The status codes themselves are the service's one table,
// domain/iso-status.ts (shared with the status notifications and pain.002 reports).

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
