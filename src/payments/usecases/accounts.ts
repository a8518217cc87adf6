// The user's accounts as the payment rules and the accounts API see them: each demo account with its
// ledger account (opened, with its opening journal, on first use), its entries, and the available
// balance: the ledger balance less the holds of accepted payments not yet executed (decision: Available
// balance = ledger balance less holds).
import type { SqlExecutor } from '../../shared/db/types.js';
import { minorUnit } from '../domain/currencies.js';
import type { LedgerEntry } from '../domain/demo-account.js';
import { PaymentError } from '../domain/errors.js';
import { toMinorExact } from '../domain/fees/money.js';
import type { PaymentOrder } from '../domain/payment-order.js';
import type { PayerAccount } from '../domain/rules.js';
import { electronicIban } from '../domain/rules/identifiers.js';
import {
  accountsOf,
  ensureDemoAccount,
  openDemoAccount,
  type DemoAccount,
} from '../storage/demo-accounts.js';
import {
  balanceOf,
  ensureLedgerAccount,
  entriesOf,
  postJournal,
  type AccountEntry,
} from '../storage/ledger-repo.js';
import { findPayment, paymentsOf, type StoredPayment } from '../storage/payments-repo.js';
import { backfillJournals } from '../engine/postings.js';

/**
 * getMyAccountBalance / getMyTransactionHistory: the user's demo account (opened now on their first call
 * that needs it) and its entries, newest first; `accountId`, when given, must be it (404 otherwise).
 */
export async function myAccount(
  db: SqlExecutor,
  request: { owner: string; accountId?: string | undefined; now: Date },
): Promise<{
  account: DemoAccount;
  entries: LedgerEntry[];
  totals: { booked: bigint; available: bigint };
}> {
  const account = await ensureDemoAccount(db, request.owner, request.now);
  if (request.accountId !== undefined && request.accountId !== account.accountId) {
    throw new PaymentError('ACCOUNT_NOT_FOUND', 'That account is not one of yours.');
  }
  const entries = await ledgerOf(db, request.owner, account);
  // Booked: the sum of the account's ledger entries; available: less the holds (PENDING entries).
  const booked = await balanceOf(db, account.accountId);
  const held = entries
    .filter((e) => e.status === 'PENDING')
    .reduce((a, e) => a + e.amountMinor, 0n);
  return { account, entries, totals: { booked, available: booked - held } };
}

/**
 * The ledger account of the demo account, opened now when it is not yet. A database from before the
 * ledger may hold payments already moved on by the operator: their journals are posted when the
 * ledger account opens (decision: Opening balances become opening
 * postings on first use).
 */
export async function openLedgerFor(
  db: SqlExecutor,
  owner: string,
  account: DemoAccount,
): Promise<void> {
  if (!(await ensureLedgerAccount(db, owner, account))) return;
  const payments = (await paymentsOf(db, owner)).filter((p) => paysFrom(p, account));
  for (const journal of backfillJournals(payments, account)) await postJournal(db, journal);
}

/** Whether the payment is paid from the account (its payer account, or the user's only account). */
export function paysFrom(p: StoredPayment, account: Pick<DemoAccount, 'accountId'>): boolean {
  const id = p.record.payerAccountReference?.paymentInstructionAccount?.accountId;
  return id === undefined || electronicIban(id) === account.accountId;
}

/** The account's entries (ledger entries, then holds of accepted payments), newest first. */
export async function ledgerOf(
  db: SqlExecutor,
  owner: string,
  account: DemoAccount,
): Promise<LedgerEntry[]> {
  await openLedgerFor(db, owner, account);
  const payments = await paymentsOf(db, owner);
  const byId = new Map(payments.map((p) => [p.id, p]));
  const holds = holdsOf(payments, account).map((h) => toHoldEntry(h.payment, h.minor));
  const entries: LedgerEntry[] = [];
  for (const e of await entriesOf(db, account.accountId)) {
    // A credit from another user's payment shows that payment's payer name and remittance text.
    const id = e.paymentId;
    const payment = id === null ? undefined : (byId.get(id) ?? (await findPayment(db, id)));
    entries.push(toLedgerEntry(e, payment));
  }
  return [...holds, ...entries];
}

/**
 * Accepted payments that will be debited but are not yet (INITIATED), in the account's currency, with
 * their amounts in minor units. The other currencies are checked at execution, converted.
 */
export function holdsOf(
  payments: readonly StoredPayment[],
  account: Pick<DemoAccount, 'accountId' | 'currency'>,
  exceptId?: string,
): { payment: StoredPayment; minor: bigint }[] {
  const digits = minorUnit(account.currency) ?? 2;
  const out: { payment: StoredPayment; minor: bigint }[] = [];
  for (const p of payments) {
    if (p.id === exceptId || p.status !== 'INITIATED' || !paysFrom(p, account)) continue;
    const amount = p.record.paymentInstruction?.amount;
    if (amount?.instructedCurrency !== account.currency || amount.instructedAmount === undefined)
      continue;
    const minor = toMinorExact(amount.instructedAmount, digits);
    if (minor !== undefined) out.push({ payment: p, minor });
  }
  return out;
}

function toHoldEntry(p: StoredPayment, minor: bigint): LedgerEntry {
  return {
    id: p.id,
    bookingDate: p.createdAt.slice(0, 10),
    amountMinor: minor,
    creditDebitIndicator: 'DEBIT',
    status: 'PENDING',
    ...counterparty(p.record, 'DEBIT'),
  };
}

function toLedgerEntry(e: AccountEntry, payment: StoredPayment | undefined): LedgerEntry {
  const credit = e.amountMinor >= 0n;
  const id =
    e.kind === 'OPENING'
      ? 'opening-balance'
      : e.kind === 'DEBIT' || e.kind === 'SETTLE'
        ? (e.paymentId ?? e.journalId)
        : e.journalId;
  return {
    id,
    bookingDate: e.postedAt.slice(0, 10),
    amountMinor: credit ? e.amountMinor : -e.amountMinor,
    creditDebitIndicator: credit ? 'CREDIT' : 'DEBIT',
    status: 'BOOKED',
    ...(payment
      ? counterparty(payment.record, credit ? 'CREDIT' : 'DEBIT')
      : { remittanceInformation: e.description }),
  };
}

/** The other side of the entry (the payee of a debit, the payer of a credit) and the remittance text. */
function counterparty(
  order: PaymentOrder,
  side: 'CREDIT' | 'DEBIT',
): { counterpartyName?: string; remittanceInformation?: string } {
  const name = (side === 'DEBIT' ? order.payeeReference : order.payerReference)?.involvedParty
    ?.partyName;
  const remittance = order.paymentProcessingConfiguration?.remittanceInfo?.content;
  return {
    ...(name ? { counterpartyName: name } : {}),
    ...(remittance ? { remittanceInformation: remittance } : {}),
  };
}

/**
 * The payer accounts the rules check a user's payment against: every account the service knows for the
 * user, each with its available balance (ledger balance less holds). A user owns exactly these and
 * nothing else. In the demo every user is a customer with one EUR account, opened here on the first call
 * that needs it (so a new user owns a fresh account of their own, never someone else's). `exceptId`
 * leaves out the payment being updated; `lock` (inside a transaction) serialises one user's payments on
 * PostgreSQL.
 */
export async function payerAccountsOf(
  db: SqlExecutor,
  owner: string,
  options: { now: Date; exceptId?: string; lock?: boolean },
): Promise<PayerAccount[]> {
  const { now, exceptId, lock = false } = options;
  let accounts = await accountsOf(db, owner, { lock });
  if (accounts.length === 0) {
    await openDemoAccount(db, owner, now);
    accounts = await accountsOf(db, owner, { lock });
  }
  const payments = await paymentsOf(db, owner);
  const out: PayerAccount[] = [];
  for (const account of accounts) {
    await openLedgerFor(db, owner, account);
    const held = holdsOf(payments, account, exceptId).reduce((a, h) => a + h.minor, 0n);
    out.push({
      accountId: account.accountId,
      currency: account.currency,
      availableMinor: (await balanceOf(db, account.accountId)) - held,
    });
  }
  return out;
}
