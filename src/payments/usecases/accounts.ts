// The user's accounts as the payment rules and the accounts API see them: each account with its ledger
// derived from the user's own payments, and the available balance.
import type { SqlExecutor } from '../../shared/db/types.js';
import { balances, ledger, type LedgerEntry } from '../domain/demo-account.js';
import { PaymentError } from '../domain/errors.js';
import type { PaymentOrder } from '../domain/payment-order.js';
import type { PayerAccount } from '../domain/rules.js';
import {
  accountsOf,
  ensureDemoAccount,
  openDemoAccount,
  type DemoAccount,
} from '../storage/demo-accounts.js';
import { paymentsOf, type StoredPayment } from '../storage/payments-repo.js';

/**
 * getMyAccountBalance / getMyTransactionHistory: the user's demo account (opened now on their first call
 * that needs it) and its ledger, newest first; `accountId`, when given, must be it (404 otherwise).
 */
export async function myAccount(
  db: SqlExecutor,
  request: { owner: string; accountId?: string | undefined; now: Date },
): Promise<{ account: DemoAccount; entries: LedgerEntry[] }> {
  const account = await ensureDemoAccount(db, request.owner, request.now);
  if (request.accountId !== undefined && request.accountId !== account.accountId) {
    throw new PaymentError('ACCOUNT_NOT_FOUND', 'That account is not one of yours.');
  }
  return { account, entries: await ledgerOf(db, request.owner, account) };
}

/** The account's ledger, newest first. */
export async function ledgerOf(
  db: SqlExecutor,
  owner: string,
  account: DemoAccount,
): Promise<LedgerEntry[]> {
  return ledgerFrom(account, await paymentsOf(db, owner));
}

/** The ledger of an account over the user's payments (already loaded, once for all their accounts). */
function ledgerFrom(account: DemoAccount, payments: readonly StoredPayment[]): LedgerEntry[] {
  return ledger(
    { amount: account.openingBalance, at: account.openedAt },
    payments.map((p) => ({
      id: p.id,
      status: p.status,
      amount: amountOf(p.record),
      currency: p.record.paymentInstruction?.amount?.instructedCurrency ?? null,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      counterparty: p.record.payeeReference?.involvedParty?.partyName,
      remittance: p.record.paymentProcessingConfiguration?.remittanceInfo?.content,
    })),
  );
}

/**
 * The payer accounts the rules check a user's payment against: every account the service knows for the
 * user, each with its available balance. A user owns exactly these and nothing else. In the demo every
 * user is a customer with one EUR account, opened here on the first call that needs it (so a new user
 * owns a fresh account of their own, never someone else's). `exceptId` leaves out the payment being
 * updated; `lock` (inside a transaction) serialises one user's payments on PostgreSQL.
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
  const payments = (await paymentsOf(db, owner)).filter((p) => p.id !== exceptId);
  return accounts.map((account) => ({
    accountId: account.accountId,
    currency: account.currency,
    availableMinor: balances(ledgerFrom(account, payments)).available,
  }));
}

function amountOf(order: PaymentOrder): string | null {
  const value = order.paymentInstruction?.amount?.instructedAmount;
  return value === undefined ? null : value.toFixed(2);
}
