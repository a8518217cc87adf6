// What the user's accepted payments in other currencies hold on a payer account (pure): each payment
// still to be debited (INITIATED) from the account, in a currency other than the account's, costs its
// conversion into the account's currency at the current rate. Subtracted from the available balance so
// that a second payment cannot spend the same funds (issue 26, item 1; decision: funds checked in the
// account's currency). Same-currency holds are `holdsOf` (usecases/accounts.ts); once the execution engine
// debits a payment (PENDING) the ledger carries it, in the account's currency, and it holds nothing here.
import { minorUnit } from './currencies.js';
import { costOf, type RateTable } from './fees/fx.js';
import { toMinorRounded } from './fees/money.js';
import type { PaymentStatus } from './lifecycle.js';
import type { PaymentOrder } from './payment-order.js';
import { electronicIban } from './rules/identifiers.js';

/** The status whose amount is still to be debited: the engine debits at INITIATED → PENDING. */
const HOLDING: ReadonlySet<PaymentStatus> = new Set(['INITIATED']);

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
    if (currency === account.currency) continue; // held by holdsOf
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
