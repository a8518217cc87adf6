// The double-entry ledger behind the demo accounts (pure): which journal each step of a payment posts.
// Amounts are signed integer minor units from the account holder's side (a credit to a customer account
// is positive); every journal's entries sum to zero per currency, so the sum over the whole ledger is
// zero too. Customer accounts are keyed by their IBAN; the bank's own accounts per currency are
// BANK:<currency>:OPENING (the counterpart of opening balances), BANK:<currency>:CLEARING (debited
// payments on their way) and BANK:<currency>:SETTLEMENT (what was settled with other banks).
// Journals are never changed: a rejection or a return is a new journal (decision: Append-only ledger).

export const BANK_ROLES = ['OPENING', 'CLEARING', 'SETTLEMENT'] as const;
export type BankRole = (typeof BANK_ROLES)[number];

/** What a journal records; one journal of each kind per payment at most (its id says so). */
export const JOURNAL_KINDS = ['OPENING', 'DEBIT', 'SETTLE', 'REVERSAL', 'RETURN'] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

export interface Posting {
  readonly accountId: string;
  readonly currency: string;
  /** Signed minor units: positive credits the account holder. */
  readonly amountMinor: bigint;
}

export interface Journal {
  readonly id: string;
  readonly kind: JournalKind;
  readonly paymentId: string | null;
  readonly postedAt: string;
  readonly description: string;
  readonly postings: readonly Posting[];
}

export function bankAccountId(currency: string, role: BankRole): string {
  return `BANK:${currency}:${role}`;
}

/** The id of a payment's journal of that kind: deterministic, so posting it twice is impossible. */
export function journalId(paymentId: string, kind: JournalKind): string {
  return `${paymentId}:${kind}`;
}

export function openingJournalId(accountId: string): string {
  return `OPENING:${accountId}`;
}

/** True when the entries of every currency sum to zero (and there are at least two). */
export function isBalanced(postings: readonly Posting[]): boolean {
  if (postings.length < 2) return false;
  const sums = new Map<string, bigint>();
  for (const p of postings) sums.set(p.currency, (sums.get(p.currency) ?? 0n) + p.amountMinor);
  return [...sums.values()].every((s) => s === 0n);
}

function journal(
  id: string,
  kind: JournalKind,
  paymentId: string | null,
  postedAt: string,
  description: string,
  currency: string,
  from: string,
  to: string,
  amountMinor: bigint,
): Journal {
  return {
    id,
    kind,
    paymentId,
    postedAt,
    description,
    postings: [
      { accountId: from, currency, amountMinor: -amountMinor },
      { accountId: to, currency, amountMinor },
    ],
  };
}

/** The opening balance of a customer account, against the bank's opening account. */
export function openingJournal(
  accountId: string,
  currency: string,
  amountMinor: bigint,
  at: string,
): Journal {
  return journal(
    openingJournalId(accountId),
    'OPENING',
    null,
    at,
    'Opening balance',
    currency,
    bankAccountId(currency, 'OPENING'),
    accountId,
    amountMinor,
  );
}

/** What moves money for one payment, in the payer account's currency. */
export interface PaymentLeg {
  readonly paymentId: string;
  readonly payerAccountId: string;
  /** The payee's account at this bank (a demo account), or undefined: the payment leaves the bank. */
  readonly payeeAccountId?: string | undefined;
  readonly currency: string;
  readonly amountMinor: bigint;
  readonly description: string;
}

const CLEARING = (c: string) => bankAccountId(c, 'CLEARING');
const destination = (leg: PaymentLeg) =>
  leg.payeeAccountId ?? bankAccountId(leg.currency, 'SETTLEMENT');

/** At execution: the payer is debited, the amount waits in clearing. */
export function debitJournal(leg: PaymentLeg, at: string): Journal {
  const { paymentId: id, currency } = leg;
  return journal(
    journalId(id, 'DEBIT'),
    'DEBIT',
    id,
    at,
    leg.description,
    currency,
    leg.payerAccountId,
    CLEARING(currency),
    leg.amountMinor,
  );
}

/** At settlement: clearing pays the payee at this bank, or the settlement account for another bank. */
export function settleJournal(leg: PaymentLeg, at: string): Journal {
  const { paymentId: id, currency } = leg;
  return journal(
    journalId(id, 'SETTLE'),
    'SETTLE',
    id,
    at,
    leg.description,
    currency,
    CLEARING(currency),
    destination(leg),
    leg.amountMinor,
  );
}

/** A debited payment rejected before settlement: clearing gives the amount back to the payer. */
export function reversalJournal(leg: PaymentLeg, at: string): Journal {
  const { paymentId: id, currency } = leg;
  return journal(
    journalId(id, 'REVERSAL'),
    'REVERSAL',
    id,
    at,
    `Reversal: ${leg.description}`,
    currency,
    CLEARING(currency),
    leg.payerAccountId,
    leg.amountMinor,
  );
}

/** A settled payment sent back by the receiving side: the payee (or settlement) repays the payer. */
export function returnJournal(leg: PaymentLeg, at: string): Journal {
  const { paymentId: id, currency } = leg;
  return journal(
    journalId(id, 'RETURN'),
    'RETURN',
    id,
    at,
    `Return: ${leg.description}`,
    currency,
    destination(leg),
    leg.payerAccountId,
    leg.amountMinor,
  );
}
