// A payment call in human terms for its approver (issue 25: "for a payment, amount and currency, payer and
// payee …, execution date"): read from a createPayment-shaped call's arguments (`body` as the Payment Order
// API's PaymentCreateRequest). Pure; null when the arguments are not a payment.
export interface PaymentParty {
  readonly account: string;
  readonly name?: string | undefined;
}

export interface PaymentSummary {
  readonly amount: string;
  readonly currency: string;
  readonly payer: PaymentParty;
  readonly payee: PaymentParty;
  /** The requested execution date as given; absent: as soon as possible. */
  readonly executionDate?: string | undefined;
  readonly chargeBearer?: string | undefined;
  readonly priority?: string | undefined;
  /** The instruction fields a fee quote needs, as the call states them. */
  readonly feeQuery: Readonly<Record<string, unknown>>;
}

type Json = Readonly<Record<string, unknown>>;

function object(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

function at(value: unknown, ...path: string[]): unknown {
  let current: unknown = value;
  for (const key of path) current = object(current)?.[key];
  return current;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function paymentSummary(args: Json): PaymentSummary | null {
  const body = object(args['body']) ?? args;
  const instruction = object(body['paymentInstruction']);
  const amount = text(at(instruction, 'amount', 'instructedAmount'));
  const currency = text(at(instruction, 'amount', 'instructedCurrency'));
  const payerAccount = text(
    at(body, 'payerAccountReference', 'paymentInstructionAccount', 'accountId'),
  );
  const payeeAccount = text(
    at(body, 'payeeAccountReference', 'paymentInstructionAccount', 'accountId'),
  );
  if (amount === undefined || currency === undefined) return null;
  if (payerAccount === undefined || payeeAccount === undefined) return null;
  const payerName = text(at(body, 'payerReference', 'involvedParty', 'partyName'));
  const payeeName = text(at(body, 'payeeReference', 'involvedParty', 'partyName'));
  const chargeBearer = text(instruction?.['chargeBearer']);
  const priority = text(instruction?.['priority']);
  return {
    amount,
    currency,
    payer: { account: payerAccount, ...(payerName === undefined ? {} : { name: payerName }) },
    payee: { account: payeeAccount, ...(payeeName === undefined ? {} : { name: payeeName }) },
    executionDate:
      text(at(instruction, 'paymentDates', 'requestedExecutionDate')) ??
      text(at(instruction, 'schedule', 'startDate')),
    ...(chargeBearer === undefined ? {} : { chargeBearer }),
    ...(priority === undefined ? {} : { priority }),
    feeQuery: {
      payerAccountReference: { paymentInstructionAccount: { accountId: payerAccount } },
      payeeAccountReference: { paymentInstructionAccount: { accountId: payeeAccount } },
      amount: object(instruction?.['amount']) ?? {},
      ...(chargeBearer === undefined ? {} : { chargeBearer }),
      ...(priority === undefined ? {} : { priority }),
    },
  };
}

/** Whether an account id reads as an IBAN (two letters, two check digits, 10–30 more characters). */
export function looksLikeIban(account: string): boolean {
  return /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(account.replace(/\s+/g, '').toUpperCase());
}
