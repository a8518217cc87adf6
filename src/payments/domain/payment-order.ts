// The payment order as the domain reads it: the types generated from the OpenAPI document
// (openapi/payment-order.generated.ts, from payment-order.yaml: one source). A PaymentOrder is JSON that
// the route checked against that document's schema (or that the service stored after such a check), so
// every field it names has its declared type when present, and the domain reads typed fields.
import type {
  FeeQueryRecord,
  PaymentRecord,
  Schedule,
} from '../openapi/payment-order.generated.js';

export type {
  AccountReference,
  Amount,
  AppliedFee,
  CancellationRequest,
  ChargeBearer,
  FeeDate,
  InvolvedParty,
  PaymentInstruction,
  PaymentInstructionAccount,
  PaymentInstructionReference,
  Priority,
  Schedule,
  StatusReason,
} from '../openapi/payment-order.generated.js';

/** A payment order: the body of create, update and validate, and the record stored and returned. */
export type PaymentOrder = PaymentRecord;
/** A prospective payment to quote (fetchPaymentFees' body and answer). */
export type FeeQuery = FeeQueryRecord;

/** The order's schedule, when it carries a recurrence. */
export function scheduleOf(order: PaymentOrder): Schedule | undefined {
  return order.paymentInstruction?.schedule;
}

/** Whether the order carries a schedule (a recurrence). */
export function hasSchedule(order: PaymentOrder): boolean {
  return scheduleOf(order) !== undefined;
}
