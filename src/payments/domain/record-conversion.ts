// Turning submitted orders into stored ones and stored ones into responses (pure).
import { toDecimalString } from './currencies.js';
import type { PaymentStatus } from './lifecycle.js';
import {
  hasSchedule,
  type AccountReference,
  type PaymentInstructionReference,
  type PaymentOrder,
  type StatusReason,
} from './payment-order.js';
import { electronicIban, isIbanAccount } from './rules/identifiers.js';
import type { ScheduleProgress } from './schedule.js';

type ReferenceField = keyof PaymentInstructionReference;

/** Fields of paymentInstructionReference the service owns (client values are replaced). */
const SERVER_FIELDS: readonly ReferenceField[] = [
  'identification',
  'status',
  'reason',
  'statusReasons',
  'usedMechanism',
  'remainingInstances',
  'nextExecutionDate',
  'standingOrderIdentification',
];
/** Fields a response sets afresh from the stored payment. */
const RENDERED_FIELDS: readonly ReferenceField[] = [
  'reason',
  'statusReasons',
  'remainingInstances',
  'nextExecutionDate',
  'standingOrderIdentification',
];

/** INITIATED, or SCHEDULED when the order has a schedule or a future requested execution date. */
export function initialStatus(order: PaymentOrder, now: Date): PaymentStatus {
  if (hasSchedule(order)) return 'SCHEDULED';
  const requested = Date.parse(
    order.paymentInstruction?.paymentDates?.requestedExecutionDate ?? '',
  );
  if (!Number.isNaN(requested)) {
    const today = now.toISOString().slice(0, 10);
    if (new Date(requested).toISOString().slice(0, 10) > today) return 'SCHEDULED';
  }
  return 'INITIATED';
}

/**
 * The status after an update: kept, unless the update changes what decides between INITIATED and
 * SCHEDULED (the schedule or the requested execution date); then decided afresh. SUSPENDED stays.
 * Time passing alone never moves a payment: that is the clearing side's (operator endpoint).
 */
export function statusAfterUpdate(
  current: PaymentStatus,
  before: PaymentOrder,
  after: PaymentOrder,
  now: Date,
): PaymentStatus {
  if (current !== 'INITIATED' && current !== 'SCHEDULED') return current;
  const timing = (o: PaymentOrder) =>
    JSON.stringify([
      o.paymentInstruction?.schedule ?? null,
      o.paymentInstruction?.paymentDates?.requestedExecutionDate ?? null,
    ]);
  return timing(before) === timing(after) ? current : initialStatus(after, now);
}

/**
 * The order to store: the client's order with the service-owned reference fields set and IBANs in their
 * electronic form (as pain.001 carries them: no spaces, upper case).
 */
export function prepareRecord(
  submitted: PaymentOrder,
  fields: { identification: string; uetr: string; usedMechanism?: string | undefined },
): PaymentOrder {
  const { payerAccountReference: payer, payeeAccountReference: payee } = submitted;
  return {
    ...submitted,
    ...(payer !== undefined ? { payerAccountReference: electronicAccount(payer) } : {}),
    ...(payee !== undefined ? { payeeAccountReference: electronicAccount(payee) } : {}),
    paymentInstructionReference: {
      ...without(submitted.paymentInstructionReference, SERVER_FIELDS),
      identification: fields.identification,
      uetr: fields.uetr,
      ...(fields.usedMechanism !== undefined ? { usedMechanism: fields.usedMechanism } : {}),
    },
  };
}

function electronicAccount(reference: AccountReference): AccountReference {
  const account = reference.paymentInstructionAccount;
  if (account?.accountId === undefined || !isIbanAccount(account.accountId, account.numberType))
    return reference;
  return {
    ...reference,
    paymentInstructionAccount: { ...account, accountId: electronicIban(account.accountId) },
  };
}

/**
 * The order as the API returns it: stored order plus current status and reason, and (validatePayment)
 * every status reason found. Status fields the client sent are replaced, never echoed.
 */
export function renderRecord(
  order: PaymentOrder,
  status: PaymentStatus | null,
  reason: string | null,
  statusReasons: readonly StatusReason[] = [],
  progress?: ScheduleProgress,
): PaymentOrder {
  return {
    ...order,
    paymentInstructionReference: {
      ...without(order.paymentInstructionReference, RENDERED_FIELDS),
      status,
      ...(progress
        ? {
            remainingInstances: progress.remainingInstances,
            ...(progress.nextExecutionDate !== undefined
              ? { nextExecutionDate: progress.nextExecutionDate }
              : {}),
          }
        : {}),
      ...(reason !== null ? { reason } : {}),
      ...(statusReasons.length > 0
        ? {
            statusReasons: statusReasons.map(({ pointer, code, reason: r, message }) => ({
              pointer,
              code,
              reason: r,
              message,
            })),
          }
        : {}),
    },
  };
}

function without(
  reference: PaymentInstructionReference | undefined,
  fields: readonly ReferenceField[],
): PaymentInstructionReference {
  const out = { ...reference };
  for (const field of fields) delete out[field];
  return out;
}

/** The instructed amount as a decimal string with the currency's minor unit (stored column). */
export function instructedAmountOf(order: PaymentOrder): {
  amount: string | null;
  currency: string | null;
} {
  const amount = order.paymentInstruction?.amount?.instructedAmount;
  const currency = order.paymentInstruction?.amount?.instructedCurrency ?? null;
  return {
    amount: amount === undefined ? null : toDecimalString(amount, currency ?? ''),
    currency,
  };
}
