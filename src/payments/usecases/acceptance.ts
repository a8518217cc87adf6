// What acceptance of a payment order needs beyond the rules' own inputs (issue 26's go-live list): the
// service's exchange rates for the funds check in the account's currency, the rails' calendars to roll an
// execution date off a weekend or closing day, and the window in which a repeated order is a possible
// duplicate. Built once from the configuration (app.ts) and shared by the payment and fee routes.
// (decision: possible duplicates; decision: business-day rolling of execution dates)
import type { SqlExecutor } from '../../shared/db/types.js';
import { findDuplicate } from '../domain/duplicates.js';
import { PaymentError } from '../domain/errors.js';
import {
  orderRail,
  rollExecutionDate,
  type ExecutionDateAdjustment,
} from '../domain/execution-date.js';
import type { FeesSettings } from '../domain/fees/quote.js';
import type { PaymentOrder } from '../domain/payment-order.js';
import type { RuleContext } from '../domain/rules.js';
import { paymentsCreatedSince } from '../storage/payments-repo.js';
import type { RateSource } from './rates.js';

export interface AcceptanceSettings {
  readonly fees: FeesSettings;
  readonly rates: RateSource;
  /** A repeated order within this many ms (without idempotency key) is a possible duplicate; 0: off. */
  readonly duplicateWindowMs: number;
}

/** Where the response shows a rolled execution date (a service-owned key of customFields). */
export const ADJUSTMENT = 'executionDateAdjustment';

/** The rules' view of the service's rates (the current table and the age limit). */
export async function ratesOf(
  acceptance: AcceptanceSettings | undefined,
): Promise<RuleContext['rates']> {
  if (acceptance === undefined) return undefined;
  return {
    table: await acceptance.rates.current(),
    maxAgeMs: acceptance.fees.rates.maxAgeSeconds * 1000,
  };
}

/**
 * The order with its requested execution date rolled onto a business day of its rail, and the adjustment
 * (undefined when none was needed). The response shows it in `customFields.executionDateAdjustment`.
 */
export function withBusinessDay(
  acceptance: AcceptanceSettings | undefined,
  order: PaymentOrder,
  usedMechanism: string | undefined,
  now: Date,
): { order: PaymentOrder; adjustment?: ExecutionDateAdjustment } {
  const requested = order.paymentInstruction?.paymentDates?.requestedExecutionDate;
  // The key is the service's: a client's copy from an earlier answer is kept while it still describes the
  // requested date (an order sent back as getPayment returned it), and never outlives a new date.
  const { [ADJUSTMENT]: earlier, ...custom } = order.customFields ?? {};
  const current =
    typeof earlier === 'object' &&
    earlier !== null &&
    'executionDate' in earlier &&
    typeof earlier.executionDate === 'string' &&
    requested !== undefined &&
    Date.parse(earlier.executionDate) === Date.parse(requested);
  const unadjusted =
    order.customFields === undefined || earlier === undefined || current
      ? order
      : { ...order, customFields: custom };
  if (acceptance === undefined || requested === undefined) return { order: unadjusted };
  const rail = orderRail(acceptance.fees, order, usedMechanism, new Date(Date.parse(requested)));
  const adjustment = rollExecutionDate(requested, rail, rail.convention, now);
  if (adjustment === undefined) return { order: unadjusted };
  const room = Object.keys(custom).length < 50; // customFields holds at most 50 entries
  return {
    adjustment,
    order: {
      ...order,
      paymentInstruction: {
        ...order.paymentInstruction,
        paymentDates: {
          ...order.paymentInstruction?.paymentDates,
          requestedExecutionDate: adjustment.executionDate,
        },
      },
      ...(room ? { customFields: { ...custom, [ADJUSTMENT]: adjustment } } : {}),
    },
  };
}

/**
 * Refuses (409 POSSIBLE_DUPLICATE) an order that repeats one of the owner's created within the window,
 * unless the client confirmed it (header `Confirm-Duplicate: true`) or sent an idempotency key (a retry
 * with the key is answered by the first response instead).
 */
export async function refuseDuplicate(
  tx: SqlExecutor,
  acceptance: AcceptanceSettings | undefined,
  request: { owner: string; order: PaymentOrder; now: Date; confirmed: boolean; keyed: boolean },
): Promise<void> {
  const windowMs = acceptance?.duplicateWindowMs ?? 0;
  if (windowMs <= 0 || request.confirmed || request.keyed) return;
  const since = new Date(request.now.getTime() - windowMs).toISOString();
  const earlier = await paymentsCreatedSince(tx, request.owner, since);
  const duplicate = findDuplicate(request.order, earlier);
  if (duplicate === undefined) return;
  throw new PaymentError(
    'POSSIBLE_DUPLICATE',
    `This order repeats payment ${duplicate.id} (same payer, payee, amount, date and reference) created at ${duplicate.createdAt}. Send it again with the header Confirm-Duplicate: true to make a second payment.`,
    undefined,
    { duplicateOf: duplicate.id },
  );
}
