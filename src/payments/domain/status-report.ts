// A pain.002-style customer payment status report of one payment (pure): the ISO 20022 message's content
// as JSON, from the stored payment and its status history. status-report-xml.ts renders the same report
// as pain.002.001.10 XML. Documented in docs/payments-notifications.md.
import { toDecimalString } from './currencies.js';
import { isoReason, isoStatusOf, type IsoTransactionStatus } from './iso-status.js';
import type { PaymentStatus } from './lifecycle.js';
import type { PaymentOrder } from './payment-order.js';

/** The pain.001 version a payment order corresponds to (the report's OrgnlMsgNmId). */
export const ORIGINAL_MESSAGE_NAME = 'pain.001.001.09';
/** The identification ISO 20022 uses when an end-to-end id was not provided. */
export const NOT_PROVIDED = 'NOTPROVIDED';

export interface ReportedStatusChange {
  readonly at: string;
  readonly fromStatus: PaymentStatus | null;
  readonly toStatus: PaymentStatus;
  readonly isoStatus: IsoTransactionStatus;
  readonly reasonCode: string | null;
  readonly actor: string;
}

export interface StatusReason {
  readonly code?: string;
  readonly proprietary?: string;
}

export interface ReportedParty {
  readonly name?: string;
  readonly account?: { readonly iban: string } | { readonly other: string };
}

export interface PaymentStatusReport {
  readonly groupHeader: { readonly messageId: string; readonly creationDateTime: string };
  readonly originalGroupInformation: {
    readonly originalMessageId: string;
    readonly originalMessageNameId: string;
    readonly originalNumberOfTransactions: 1;
    readonly originalControlSum: string | null;
    readonly groupStatus: IsoTransactionStatus;
  };
  readonly originalPaymentInformation: {
    readonly originalPaymentInformationId: string;
    readonly paymentInformationStatus: IsoTransactionStatus;
  };
  readonly transaction: {
    readonly statusId: string;
    readonly originalInstructionId: string;
    readonly originalEndToEndId: string;
    readonly originalUetr: string | null;
    readonly transactionStatus: IsoTransactionStatus;
    readonly statusReason: StatusReason | null;
    readonly acceptanceDateTime: string;
    readonly originalTransactionReference: {
      readonly amount: { readonly value: string; readonly currency: string } | null;
      readonly requestedExecutionDate: string | null;
      readonly debtor: ReportedParty;
      readonly creditor: ReportedParty;
    };
  };
  /** The service's own view next to the ISO one. */
  readonly paymentId: string;
  readonly paymentStatus: PaymentStatus;
  readonly reasonCode: string | null;
  readonly statusHistory: readonly ReportedStatusChange[];
}

export interface ReportInput {
  readonly payment: {
    readonly id: string;
    readonly status: PaymentStatus;
    readonly reason: string | null;
    readonly version: number;
    readonly record: PaymentOrder;
    readonly createdAt: string;
  };
  readonly history: readonly {
    readonly at: string;
    readonly from: PaymentStatus | null;
    readonly to: PaymentStatus;
    readonly reason: string | null;
    readonly actor: string;
  }[];
  /** The report's own message id (at most 35 characters) and creation time. */
  readonly messageId: string;
  readonly now: Date;
}

export function buildStatusReport(input: ReportInput): PaymentStatusReport {
  const { payment } = input;
  const record = payment.record;
  const iso = isoStatusOf(payment.status);
  const amount = record.paymentInstruction?.amount;
  const value =
    amount?.instructedAmount !== undefined && amount.instructedCurrency !== undefined
      ? {
          value: toDecimalString(amount.instructedAmount, amount.instructedCurrency),
          currency: amount.instructedCurrency,
        }
      : null;
  const reason = isoReason(payment.reason);
  const reference = record.paymentInstructionReference;
  const executionDate =
    record.paymentInstruction?.paymentDates?.requestedExecutionDate ??
    record.paymentInstruction?.schedule?.startDate;
  return {
    groupHeader: { messageId: input.messageId, creationDateTime: input.now.toISOString() },
    originalGroupInformation: {
      originalMessageId: payment.id,
      originalMessageNameId: ORIGINAL_MESSAGE_NAME,
      originalNumberOfTransactions: 1,
      originalControlSum: value?.value ?? null,
      groupStatus: iso,
    },
    originalPaymentInformation: {
      originalPaymentInformationId: payment.id,
      paymentInformationStatus: iso,
    },
    transaction: {
      statusId: `${payment.id}-v${payment.version}`,
      originalInstructionId: payment.id,
      originalEndToEndId: endToEndId(reference?.externalId ?? reference?.reference),
      originalUetr: reference?.uetr ?? null,
      transactionStatus: iso,
      statusReason: reason ?? null,
      acceptanceDateTime: payment.createdAt,
      originalTransactionReference: {
        amount: value,
        requestedExecutionDate: executionDate === undefined ? null : executionDate.slice(0, 10),
        debtor: party(
          record.payerReference?.involvedParty?.partyName,
          record.payerAccountReference?.paymentInstructionAccount,
        ),
        creditor: party(
          record.payeeReference?.involvedParty?.partyName,
          record.payeeAccountReference?.paymentInstructionAccount,
        ),
      },
    },
    paymentId: payment.id,
    paymentStatus: payment.status,
    reasonCode: payment.reason,
    statusHistory: input.history.map((c) => ({
      at: c.at,
      fromStatus: c.from,
      toStatus: c.to,
      isoStatus: isoStatusOf(c.to),
      reasonCode: c.reason,
      actor: c.actor,
    })),
  };
}

/** An end-to-end id is Max35Text: the client's id when it fits, NOTPROVIDED otherwise. */
function endToEndId(candidate: string | undefined): string {
  return candidate !== undefined && candidate.length > 0 && candidate.length <= 35
    ? candidate
    : NOT_PROVIDED;
}

function party(
  name: string | undefined,
  account: { readonly accountId?: string; readonly numberType?: string } | undefined,
): ReportedParty {
  const id = account?.accountId;
  return {
    ...(name !== undefined && name.length > 0 ? { name } : {}),
    ...(id !== undefined && id.length > 0
      ? { account: account?.numberType === 'IBAN' ? { iban: id } : { other: id } }
      : {}),
  };
}
