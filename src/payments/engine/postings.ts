// Which journals a payment already moved on before the ledger existed needs (pure): a database from
// before the ledger holds payments the operator moved to PENDING, CONFIRMED or COMPLETED, whose debit
// the old derived balances showed; they get the same journals the engine would have posted.
import type { DemoAccount } from '../storage/demo-accounts.js';
import type { StoredPayment } from '../storage/payments-repo.js';
import { minorUnit } from '../domain/currencies.js';
import { toMinorExact } from '../domain/fees/money.js';
import {
  debitJournal,
  returnJournal,
  settleJournal,
  type Journal,
  type PaymentLeg,
} from '../domain/ledger.js';

const DEBITED = new Set(['PENDING', 'CONFIRMED', 'COMPLETED', 'RETURNED']);
const SETTLED = new Set(['COMPLETED', 'RETURNED']);

/** The payment's amount in minor units of its own currency, when it has a valid one. */
export function instructedMinor(p: StoredPayment): { currency: string; minor: bigint } | undefined {
  const amount = p.record.paymentInstruction?.amount;
  const currency = amount?.instructedCurrency;
  if (currency === undefined || amount?.instructedAmount === undefined) return undefined;
  const minor = toMinorExact(amount.instructedAmount, minorUnit(currency) ?? 2);
  return minor === undefined ? undefined : { currency, minor };
}

/** What a payment's journals say in their descriptions: the payee and the remittance text. */
export function describe(p: StoredPayment): string {
  const payee = p.record.payeeReference?.involvedParty?.partyName;
  const remittance = p.record.paymentProcessingConfiguration?.remittanceInfo?.content;
  return [`Payment ${p.id}`, payee ? `to ${payee}` : '', remittance ? `(${remittance})` : '']
    .filter((s) => s !== '')
    .join(' ');
}

/** Journals for the account's payments already past acceptance (same currency; settled externally). */
export function backfillJournals(
  payments: readonly StoredPayment[],
  account: DemoAccount,
): Journal[] {
  const out: Journal[] = [];
  for (const p of payments) {
    const amount = instructedMinor(p);
    if (!DEBITED.has(p.status) || amount?.currency !== account.currency) continue;
    const leg: PaymentLeg = {
      paymentId: p.id,
      payerAccountId: account.accountId,
      currency: account.currency,
      amountMinor: amount.minor,
      description: describe(p),
    };
    out.push(debitJournal(leg, p.updatedAt));
    if (SETTLED.has(p.status)) out.push(settleJournal(leg, p.updatedAt));
    if (p.status === 'RETURNED') out.push(returnJournal(leg, p.updatedAt));
  }
  return out;
}
