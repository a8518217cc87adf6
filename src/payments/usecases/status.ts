// Status changes from the clearing side (the operator endpoint), independent of HTTP details: only the
// lifecycle table's transitions, each recorded in the payment's history in the transaction of the change,
// with its ledger journals (a RETURNED payment gives the payer the amount back).
import type { Database } from '../../shared/db/types.js';
import { PaymentError } from '../domain/errors.js';
import type { RateTable } from '../domain/fees/fx.js';
import { canTransition, TRANSITIONS, type PaymentStatus } from '../domain/lifecycle.js';
import { applyTransition } from '../engine/transition.js';
import { paymentEntries } from '../storage/ledger-repo.js';
import {
  findPayment,
  statusHistory,
  type StatusChange,
  type StoredPayment,
} from '../storage/payments-repo.js';

export interface StatusChangeRequest {
  readonly id: string;
  readonly to: PaymentStatus;
  readonly reason: string | null;
  readonly description?: string | undefined;
  /** `operator:…<last 4 of the token>`. */
  readonly actor: string;
  readonly now: Date;
  /** The service's exchange rates: a debit in another currency than the account's is converted. */
  readonly rates?: RateTable | undefined;
}

/** Moves any user's payment to `to` when the lifecycle allows it; the payment and its status changes. */
export function changePaymentStatus(
  db: Database,
  request: StatusChangeRequest,
): Promise<{ updated: StoredPayment; history: StatusChange[] }> {
  const { id, to, reason, description, actor, now, rates } = request;
  return db.transaction(async (tx) => {
    const current = await findPayment(tx, id);
    if (!current) throw new PaymentError('PAYMENT_NOT_FOUND', `No payment ${id} was found.`);
    if (!canTransition(current.status, to)) {
      throw new PaymentError(
        'INVALID_STATE',
        `${current.status} → ${to} is not an allowed transition (allowed: ${TRANSITIONS[current.status].join(', ') || 'none'}).`,
        undefined,
        { paymentStatus: current.status },
      );
    }
    // A payment debited before it was suspended is in clearing: it resumes to PENDING (or fails, which
    // reverses the debit), never to a status that would hold and debit it a second time.
    if (
      current.status === 'SUSPENDED' &&
      (to === 'INITIATED' || to === 'SCHEDULED') &&
      (await paymentEntries(tx, current.id)).some((e) => e.kind === 'DEBIT')
    ) {
      throw new PaymentError(
        'INVALID_STATE',
        `Payment ${current.id} was debited before it was suspended: resume it to PENDING, not ${to}.`,
        undefined,
        { paymentStatus: current.status },
      );
    }
    // The ledger follows the status (debit, settlement, reversal, return): engine/transition.ts.
    const updated = await applyTransition(tx, current, {
      to,
      reason,
      at: now.toISOString(),
      actor,
      ...(description !== undefined ? { description } : {}),
      ...(rates !== undefined ? { rates } : {}),
    });
    if (!updated)
      throw new PaymentError('CONCURRENT_UPDATE', 'The payment changed meanwhile; retry.');
    return { updated, history: await statusHistory(tx, current.id) };
  });
}
