// What the user's pending payments in other currencies hold on a payer account (pure): each payment
// still to be debited (INITIATED, PENDING, CONFIRMED) from the account, in a currency the demo ledger
// does not book (it books EUR only), costs its conversion into the account's currency at the current
// rate. Subtracted from the available balance so that a second foreign-currency payment cannot spend the
// same funds (issue 26, item 1; decision: funds checked in the account's currency). The execution
// engine's ledger books executed payments in the account's currency.
import { DEMO_CURRENCY } from './demo-account.js';
import { minorUnit } from './currencies.js';
import { costOf, type RateTable } from './fees/fx.js';
import { toMinorRounded } from './fees/money.js';
import type { PaymentStatus } from './lifecycle.js';
import type { PaymentOrder } from './payment-order.js';
import { electronicIban } from './rules/identifiers.js';

/** Statuses whose amount is still to be debited (as the demo ledger's pending entries). */
const HOLDING: ReadonlySet<PaymentStatus> = new Set(['INITIATED', 'PENDING', 'CONFIRMED']);

/** Minor units of `account.currency` held by the pending foreign-currency payments from the account. */
export function foreignHoldsMinor(
  account: { readonly accountId: string; readonly currency: string },
  payments: readonly { readonly status: PaymentStatus; readonly record: PaymentOrder }[],
  table: RateTable,
): bigint {
  const accountDigits = minorUnit(account.currency);
  if (accountDigits === undefined) return 0n;
  let held = 0n;
  for (const { status, record } of payments) {
    const payer = record.payerAccountReference?.paymentInstructionAccount?.accountId;
    const { instructedAmount: amount, instructedCurrency: currency } =
      record.paymentInstruction?.amount ?? {};
    if (!HOLDING.has(status) || payer === undefined || electronicIban(payer) !== account.accountId)
      continue;
    if (amount === undefined || currency === undefined) continue;
    if (currency === account.currency || currency === DEMO_CURRENCY) continue; // booked by the ledger
    const digits = minorUnit(currency);
    if (digits === undefined) continue;
    const cost = costOf(
      table,
      account.currency,
      currency,
      toMinorRounded(amount, digits),
      accountDigits,
      digits,
    );
    held += cost ?? 0n;
  }
  return held;
}
