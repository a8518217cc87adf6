// The payment state machine: the nine statuses and the transitions between them (pure).
// The table is documented in docs/decisions.md, D-153.
export const PAYMENT_STATUSES = [
  'INITIATED',
  'SCHEDULED',
  'PENDING',
  'CONFIRMED',
  'SUSPENDED',
  'COMPLETED',
  'RETURNED',
  'FAILED',
  'CANCELLED',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Allowed status changes (from → to). CANCELLED is reached through the cancel operation. */
export const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  INITIATED: ['PENDING', 'SUSPENDED', 'FAILED', 'CANCELLED'],
  SCHEDULED: ['PENDING', 'SUSPENDED', 'FAILED', 'COMPLETED', 'CANCELLED'],
  PENDING: ['CONFIRMED', 'SUSPENDED', 'FAILED', 'COMPLETED'],
  CONFIRMED: ['COMPLETED', 'FAILED'],
  SUSPENDED: ['INITIATED', 'SCHEDULED', 'PENDING', 'FAILED', 'CANCELLED'],
  COMPLETED: ['RETURNED'],
  RETURNED: [],
  FAILED: [],
  CANCELLED: [],
};

/** Statuses in which the owner may still change the payment. */
export const UPDATABLE: ReadonlySet<PaymentStatus> = new Set([
  'INITIATED',
  'SCHEDULED',
  'SUSPENDED',
]);
/** Statuses in which the owner may still cancel the payment (or instances of its schedule). */
export const CANCELLABLE: ReadonlySet<PaymentStatus> = new Set([
  'INITIATED',
  'SCHEDULED',
  'SUSPENDED',
]);

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function isTerminal(status: PaymentStatus): boolean {
  return TRANSITIONS[status].length === 0;
}
