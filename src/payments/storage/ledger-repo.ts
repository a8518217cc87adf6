// The ledger's tables (ledger_accounts, ledger_journals, ledger_entries): accounts opened on first use,
// journals appended (never updated: the tables refuse UPDATE and DELETE), balances summed from entries.
// Every journal is checked balanced before it is written, in the caller's transaction.
import type { SqlExecutor } from '../../shared/db/types.js';
import { minorUnit } from '../domain/currencies.js';
import {
  bankAccountId,
  BANK_ROLES,
  isBalanced,
  openingJournal,
  type Journal,
  type JournalKind,
} from '../domain/ledger.js';
import type { DemoAccount } from './demo-accounts.js';

export interface LedgerAccount {
  readonly id: string;
  readonly kind: 'CUSTOMER' | 'BANK';
  readonly owner: string | null;
  readonly currency: string;
  readonly status: 'OPEN' | 'CLOSED';
}

interface AccountRow extends Record<string, unknown> {
  id: string;
  kind: string;
  owner: string | null;
  currency: string;
  status: string;
}

const fromAccountRow = (r: AccountRow): LedgerAccount => ({
  id: r.id,
  kind: r.kind === 'BANK' ? 'BANK' : 'CUSTOMER',
  owner: r.owner,
  currency: r.currency,
  status: r.status === 'CLOSED' ? 'CLOSED' : 'OPEN',
});

/** A decimal amount ("5000.00") in the currency's minor units. */
export function decimalToMinor(amount: string, currency: string): bigint {
  const digits = minorUnit(currency) ?? 2;
  const negative = amount.trim().startsWith('-');
  const [whole = '0', fraction = ''] = amount.trim().replace(/^-/, '').split('.');
  const minor =
    BigInt(whole || '0') * 10n ** BigInt(digits) +
    BigInt((fraction + '0'.repeat(digits)).slice(0, digits) || '0');
  return negative ? -minor : minor;
}

/** The domestic account number of an IBAN (a German one: the BBAN's last ten digits), or the id itself. */
function accountNumberOf(accountId: string): string | null {
  if (/^DE\d{20}$/.test(accountId)) return accountId.slice(12);
  if (/^\d{1,10}$/.test(accountId)) return accountId.padStart(10, '0');
  return null;
}

async function ensureBankAccounts(tx: SqlExecutor, currency: string, at: string): Promise<void> {
  for (const role of BANK_ROLES) {
    await tx.execute(
      `INSERT INTO ledger_accounts (id, kind, owner, currency, status, opened_at)
       VALUES ($1, 'BANK', NULL, $2, 'OPEN', $3) ON CONFLICT (id) DO NOTHING`,
      [bankAccountId(currency, role), currency, at],
    );
  }
}

/**
 * The demo account's ledger account, opened with its opening balance as an opening journal the first
 * time anything touches it (decision: Opening balances become
 * opening postings on first use). Returns
 * true when it was opened now.
 */
export async function ensureLedgerAccount(
  tx: SqlExecutor,
  owner: string,
  account: DemoAccount,
): Promise<boolean> {
  const opened = await tx.execute(
    `INSERT INTO ledger_accounts (id, kind, owner, currency, status, opened_at, account_number)
     VALUES ($1, 'CUSTOMER', $2, $3, 'OPEN', $4, $5) ON CONFLICT (id) DO NOTHING`,
    [
      account.accountId,
      owner,
      account.currency,
      account.openedAt,
      accountNumberOf(account.accountId),
    ],
  );
  if (opened === 0) return false;
  await ensureBankAccounts(tx, account.currency, account.openedAt);
  await postJournal(
    tx,
    openingJournal(
      account.accountId,
      account.currency,
      decimalToMinor(account.openingBalance, account.currency),
      account.openedAt,
    ),
  );
  return true;
}

export async function findLedgerAccount(
  tx: SqlExecutor,
  id: string,
  options: { lock?: boolean } = {},
): Promise<LedgerAccount | undefined> {
  const lock = options.lock === true && tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
  const rows = await tx.query<AccountRow>(
    `SELECT id, kind, owner, currency, status FROM ledger_accounts WHERE id = $1${lock}`,
    [id],
  );
  return rows[0] ? fromAccountRow(rows[0]) : undefined;
}

/** A customer account by IBAN, or by its account number (the BBAN's last ten digits, zero-padded). */
export async function findCustomerAccount(
  tx: SqlExecutor,
  identifier: string,
): Promise<LedgerAccount | undefined> {
  const id = identifier.replace(/\s+/g, '').toUpperCase();
  if (/^\d{1,10}$/.test(id)) {
    const rows = await tx.query<AccountRow>(
      `SELECT id, kind, owner, currency, status FROM ledger_accounts
       WHERE kind = 'CUSTOMER' AND account_number = $1 ORDER BY id LIMIT 1`,
      [id.padStart(10, '0')],
    );
    return rows[0] ? fromAccountRow(rows[0]) : undefined;
  }
  const account = await findLedgerAccount(tx, id);
  return account?.kind === 'CUSTOMER' ? account : undefined;
}

/** Closes a customer account: payments from or to it are then rejected with AC04. */
export async function closeLedgerAccount(
  tx: SqlExecutor,
  id: string,
  at: string,
): Promise<boolean> {
  return (
    (await tx.execute(
      `UPDATE ledger_accounts SET status = 'CLOSED', closed_at = $2 WHERE id = $1 AND kind = 'CUSTOMER'`,
      [id, at],
    )) === 1
  );
}

/**
 * Appends a balanced journal; false (nothing written) when a journal with its id already exists. The
 * bank's accounts of a currency exist once a customer account in it was opened (ensureLedgerAccount).
 */
export async function postJournal(tx: SqlExecutor, j: Journal): Promise<boolean> {
  if (!isBalanced(j.postings)) throw new Error(`journal ${j.id} is not balanced`);
  const inserted = await tx.execute(
    `INSERT INTO ledger_journals (id, payment_id, kind, posted_at, description)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
    [j.id, j.paymentId, j.kind, j.postedAt, j.description],
  );
  if (inserted === 0) return false;
  // All entries in one statement: (journal_id, line, account_id, currency, amount_minor, posted_at, payment_id).
  const values = j.postings.map((_, i) => {
    const b = i * 7;
    return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
  });
  const params = j.postings.flatMap((p, i) => [
    j.id,
    i + 1,
    p.accountId,
    p.currency,
    String(p.amountMinor),
    j.postedAt,
    j.paymentId,
  ]);
  await tx.execute(
    `INSERT INTO ledger_entries (journal_id, line, account_id, currency, amount_minor, posted_at, payment_id)
     VALUES ${values.join(', ')}`,
    params,
  );
  return true;
}

/** The account's balance: the sum of its entries. */
export async function balanceOf(tx: SqlExecutor, accountId: string): Promise<bigint> {
  const rows = await tx.query<{ total: string | null }>(
    'SELECT CAST(SUM(amount_minor) AS TEXT) AS total FROM ledger_entries WHERE account_id = $1',
    [accountId],
  );
  return BigInt(rows[0]?.total ?? '0');
}

/** One entry of an account with its journal (what the transaction history shows). */
export interface AccountEntry {
  readonly journalId: string;
  readonly kind: JournalKind;
  readonly paymentId: string | null;
  readonly postedAt: string;
  readonly description: string;
  readonly amountMinor: bigint;
  readonly currency: string;
}

interface EntryRow extends Record<string, unknown> {
  journal_id: string;
  kind: string;
  payment_id: string | null;
  posted_at: string;
  description: string | null;
  amount: string;
  currency: string;
}

/** The account's entries, newest first (at most `max`). */
export async function entriesOf(
  tx: SqlExecutor,
  accountId: string,
  max = 1000,
): Promise<AccountEntry[]> {
  const rows = await tx.query<EntryRow>(
    `SELECT e.journal_id, j.kind, e.payment_id, e.posted_at, j.description,
            CAST(e.amount_minor AS TEXT) AS amount, e.currency
     FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
     WHERE e.account_id = $1 ORDER BY e.posted_at DESC, e.journal_id DESC LIMIT $2`,
    [accountId, max],
  );
  return rows.map((r) => ({
    journalId: r.journal_id,
    kind: r.kind as JournalKind,
    paymentId: r.payment_id,
    postedAt: r.posted_at,
    description: r.description ?? '',
    amountMinor: BigInt(r.amount),
    currency: r.currency,
  }));
}

/** Every entry of the payment's journals, with the journal's kind, in posting order. */
export async function paymentEntries(
  tx: SqlExecutor,
  paymentId: string,
): Promise<{ kind: JournalKind; accountId: string; currency: string; amountMinor: bigint }[]> {
  const rows = await tx.query<{
    kind: string;
    account_id: string;
    currency: string;
    amount: string;
  }>(
    `SELECT j.kind, e.account_id, e.currency, CAST(e.amount_minor AS TEXT) AS amount
     FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
     WHERE e.payment_id = $1 ORDER BY e.posted_at, e.journal_id, e.line`,
    [paymentId],
  );
  return rows.map((r) => ({
    kind: r.kind as JournalKind,
    accountId: r.account_id,
    currency: r.currency,
    amountMinor: BigInt(r.amount),
  }));
}

/** Sum of every entry per currency (zero for each in a balanced ledger), and how many entries there are. */
export async function trialBalance(
  tx: SqlExecutor,
): Promise<{ sums: Record<string, bigint>; entries: number }> {
  const rows = await tx.query<{ currency: string; total: string; n: number | string }>(
    `SELECT currency, CAST(SUM(amount_minor) AS TEXT) AS total, COUNT(*) AS n
     FROM ledger_entries GROUP BY currency ORDER BY currency`,
  );
  const sums: Record<string, bigint> = {};
  let entries = 0;
  for (const r of rows) {
    sums[r.currency] = BigInt(r.total);
    entries += Number(r.n);
  }
  return { sums, entries };
}
