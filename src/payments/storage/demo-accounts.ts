// The demo accounts table: one EUR account per user, opened on the user's first call that needs it (the
// accounts API, or a payment the user creates, updates or validates).
import type { SqlExecutor } from '../../shared/db/types.js';
import { DEMO_CURRENCY, DEMO_OPENING_BALANCE, demoIbanFor } from '../domain/demo-account.js';

export interface DemoAccount {
  readonly accountId: string;
  readonly currency: string;
  readonly openingBalance: string;
  readonly openedAt: string;
}

interface AccountRow extends Record<string, unknown> {
  account_id: string;
  currency: string;
  opening_balance: string;
  opened_at: string;
}

const fromRow = (row: AccountRow): DemoAccount => ({
  accountId: row.account_id,
  currency: row.currency,
  openingBalance: row.opening_balance,
  openedAt: row.opened_at,
});

/** Opens the user's demo account now when it does not exist yet (idempotent). */
export async function openDemoAccount(db: SqlExecutor, owner: string, now: Date): Promise<void> {
  await db.execute(
    `INSERT INTO demo_accounts (owner, account_id, currency, opening_balance, opened_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (owner, account_id) DO NOTHING`,
    [owner, demoIbanFor(owner), DEMO_CURRENCY, DEMO_OPENING_BALANCE, now.toISOString()],
  );
}

/** The user's demo account, opened now when it does not exist yet. */
export async function ensureDemoAccount(
  db: SqlExecutor,
  owner: string,
  now: Date,
): Promise<DemoAccount> {
  const accountId = demoIbanFor(owner);
  await openDemoAccount(db, owner, now);
  const account = (await accountsOf(db, owner)).find((a) => a.accountId === accountId);
  if (!account) throw new Error('demo account vanished');
  return account;
}

/**
 * The user's accounts (none before the user's demo account is opened). With `lock`, PostgreSQL locks
 * the rows until the transaction ends, so two payments of one user are checked against the balance one
 * after the other (SQLite transactions are serialised anyway).
 */
export async function accountsOf(
  db: SqlExecutor,
  owner: string,
  options: { lock?: boolean } = {},
): Promise<DemoAccount[]> {
  const lock = options.lock === true && db.dialect === 'postgres' ? ' FOR UPDATE' : '';
  const rows = await db.query<AccountRow>(
    `SELECT account_id, currency, opening_balance, opened_at FROM demo_accounts
     WHERE owner = $1 ORDER BY account_id${lock}`,
    [owner],
  );
  return rows.map(fromRow);
}
