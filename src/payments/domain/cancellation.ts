// Cancellation decisions (pure). Business refusals are results (HTTP 200, status "failure") with an
// ISO 20022 cancellation reason code; the set is documented in docs/decisions.md, D-154.
import { CANCELLABLE, type PaymentStatus } from './lifecycle.js';
import { hasSchedule, type CancellationRequest, type PaymentOrder } from './payment-order.js';
import { remainingInstances } from './schedule.js';

export type { CancellationRequest } from './payment-order.js';
export type CancellationType = NonNullable<CancellationRequest['cancellationType']>;

export interface CancellationResult {
  readonly status: 'success' | 'failure';
  readonly reasonCode: string;
  readonly reasonDescription: string;
}

export interface CancellationDecision {
  readonly result: CancellationResult;
  /** New status when the payment (or its whole schedule) ends up cancelled. */
  readonly newStatus?: PaymentStatus;
  /** New count of skipped instances when upcoming instances of a schedule are skipped. */
  readonly skipped?: number;
}

export interface PaymentState {
  readonly status: PaymentStatus;
  readonly record: PaymentOrder;
  readonly identification: string;
  /** Instances already skipped or executed. */
  readonly consumed: number;
}

const REFUSALS: Partial<Record<PaymentStatus, [string, string]>> = {
  CANCELLED: ['DUPL', 'the payment is already cancelled'],
  RETURNED: ['ARDT', 'the payment has already been returned'],
  FAILED: ['ARJT', 'the payment has already been rejected'],
  COMPLETED: ['PTNA', 'the payment has been completed and passed to the next agent'],
  CONFIRMED: ['PTNA', 'the payment has been confirmed and passed to the next agent'],
  PENDING: ['PTNA', 'the payment is being executed and has been passed to the next agent'],
};

export function decideCancellation(
  payment: PaymentState,
  request: CancellationRequest,
): CancellationDecision {
  const refusal = REFUSALS[payment.status];
  if (refusal || !CANCELLABLE.has(payment.status)) {
    const [code, text] = refusal ?? ['AGNT', `a ${payment.status} payment cannot be cancelled`];
    return fail(code, text);
  }
  const mismatch = referenceMismatch(payment, request);
  if (mismatch) return fail('NOOR', mismatch);

  const type = request.cancellationType ?? 'SINGLE_PAYMENT_INSTANCE';
  if (!hasSchedule(payment.record) || type === 'COMPLETE_SCHEDULE') {
    return cancelAll(
      hasSchedule(payment.record)
        ? 'all remaining instances were cancelled'
        : 'the payment was cancelled',
    );
  }
  const count = type === 'SINGLE_PAYMENT_INSTANCE' ? 1 : Number(request.noOfInstances ?? '1');
  const remaining = remainingInstances(payment.record, payment.consumed);
  if (remaining !== undefined && count >= remaining) {
    return cancelAll(
      `${count} instance${count === 1 ? '' : 's'} requested, ${remaining} remained: the schedule was cancelled`,
    );
  }
  const left =
    remaining === undefined
      ? 'the standing order continues'
      : `${remaining - count} instance(s) remain`;
  return {
    result: {
      status: 'success',
      reasonCode: 'CUST',
      reasonDescription: `the next ${count === 1 ? 'instance was' : `${count} instances were`} cancelled; ${left}`,
    },
    skipped: payment.consumed + count,
  };
}

function cancelAll(description: string): CancellationDecision {
  return {
    result: { status: 'success', reasonCode: 'CUST', reasonDescription: description },
    newStatus: 'CANCELLED',
  };
}

function fail(reasonCode: string, reasonDescription: string): CancellationDecision {
  return { result: { status: 'failure', reasonCode, reasonDescription } };
}

function referenceMismatch(
  payment: PaymentState,
  request: CancellationRequest,
): string | undefined {
  const reference = payment.record.paymentInstructionReference;
  if (request.identification !== undefined && request.identification !== payment.identification) {
    return 'identification does not match the payment';
  }
  if (request.uetr !== undefined && request.uetr.toLowerCase() !== reference?.uetr?.toLowerCase()) {
    return 'uetr does not match the payment';
  }
  if (
    request.etoeIdentification !== undefined &&
    request.etoeIdentification !== reference?.etoeIdentification
  ) {
    return 'etoeIdentification does not match the payment';
  }
  return undefined;
}
