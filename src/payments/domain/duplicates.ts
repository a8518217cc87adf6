// Possible duplicates (pure): two orders are "the same order" when payer, payee, amount, execution date
// and reference agree (issue 26, item 8). Accounts compare in electronic form, the date as the UTC day of
// the requested execution date (or the schedule's start; none: an immediate payment), the reference as
// the remittance text with the end-to-end and initiator references (letter case and spacing aside).
import type { PaymentOrder } from './payment-order.js';
import { electronicIban } from './rules/identifiers.js';

/** The identity of an order for duplicate detection. */
export function duplicateKey(order: PaymentOrder): string {
  const account = (ref: PaymentOrder['payerAccountReference']) =>
    electronicIban(ref?.paymentInstructionAccount?.accountId ?? '');
  const instruction = order.paymentInstruction;
  const date =
    instruction?.paymentDates?.requestedExecutionDate ?? instruction?.schedule?.startDate;
  const day = date === undefined ? 'immediate' : dayOf(date);
  const reference = order.paymentInstructionReference;
  return JSON.stringify([
    account(order.payerAccountReference),
    account(order.payeeAccountReference),
    instruction?.amount?.instructedAmount ?? null,
    instruction?.amount?.instructedCurrency ?? null,
    day,
    text(order.paymentProcessingConfiguration?.remittanceInfo?.content),
    text(reference?.etoeIdentification),
    text(reference?.reference),
  ]);
}

/** A reference as a person reads it: letter case and runs of spaces do not make another order. */
function text(value: string | undefined): string | null {
  return value === undefined ? null : value.trim().replace(/\s+/g, ' ').toLowerCase();
}

function dayOf(dateTime: string): string {
  const at = Date.parse(dateTime);
  return Number.isNaN(at) ? dateTime : new Date(at).toISOString().slice(0, 10);
}

/** The first of `earlier` (newest first) that is the same order as `order`, if any. */
export function findDuplicate<T extends { readonly record: PaymentOrder }>(
  order: PaymentOrder,
  earlier: readonly T[],
): T | undefined {
  const key = duplicateKey(order);
  return earlier.find((p) => duplicateKey(p.record) === key);
}
