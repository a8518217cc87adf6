// The small user-scoped accounts API (/accounts/v1): getMyAccountBalance, getMyTransactionHistory, and
// the document at /accounts/v1/openapi.json. Each user's demo account is created on first access and
// reflects the user's own payments (see domain/demo-account.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SqlExecutor } from '../../shared/db/types.js';
import {
  balances,
  demoIbanFor,
  DEMO_CURRENCY,
  DEMO_OPENING_BALANCE,
  fromMinor,
  ledger,
  type LedgerEntry,
} from '../domain/demo-account.js';
import { PaymentError } from '../domain/errors.js';
import { at, str } from '../domain/record.js';
import {
  checkRequest,
  requireUser,
  sendPaymentError,
  type PaymentsContext,
} from '../http/context.js';
import { paymentsOf } from '../storage/payments-repo.js';

export interface AccountRoutesOptions {
  readonly ctx: PaymentsContext;
  readonly document: Record<string, unknown>;
}

export async function accountRoutes(
  app: FastifyInstance,
  opts: AccountRoutesOptions,
): Promise<void> {
  const { ctx } = opts;
  const documentJson = JSON.stringify(opts.document);
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof PaymentError) return sendPaymentError(reply, error);
    throw error;
  });

  app.get('/openapi.json', async (_req, reply) =>
    reply.type('application/json').send(documentJson),
  );

  const accountFor = async (req: FastifyRequest, operationId: string) => {
    const user = requireUser(await ctx.identity.resolve(req));
    checkRequest(ctx, operationId, req);
    const query = req.query as { accountId?: string };
    const account = await ensureAccount(ctx.db, user.userId, ctx.now());
    if (query.accountId !== undefined && query.accountId !== account.accountId) {
      throw new PaymentError('ACCOUNT_NOT_FOUND', 'That account is not one of yours.');
    }
    const payments = await paymentsOf(ctx.db, user.userId);
    const entries = ledger(
      { amount: account.openingBalance, at: account.openedAt },
      payments.map((p) => ({
        id: p.id,
        status: p.status,
        amount: amountOf(p.record),
        currency: str(at(p.record, 'paymentInstruction', 'amount', 'instructedCurrency')) ?? null,
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
        counterparty: str(at(p.record, 'payeeReference', 'involvedParty', 'partyName')),
        remittance: str(
          at(p.record, 'paymentProcessingConfiguration', 'remittanceInfo', 'content'),
        ),
      })),
    );
    return { account, entries };
  };

  app.get('/me/balance', async (req, reply) => {
    const { account, entries } = await accountFor(req, 'getMyAccountBalance');
    const totals = balances(entries);
    return reply.send({
      items: [
        {
          accountId: account.accountId,
          currency: DEMO_CURRENCY,
          availableBalance: fromMinor(totals.available),
          bookedBalance: fromMinor(totals.booked),
          asOf: ctx.now().toISOString(),
        },
      ],
    });
  });

  app.get('/me/transactions', async (req, reply) => {
    const { account, entries } = await accountFor(req, 'getMyTransactionHistory');
    const q = req.query as { from?: string; to?: string; limit?: number; cursor?: string };
    const filtered = entries.filter(
      (e) =>
        (q.from === undefined || e.bookingDate >= q.from) &&
        (q.to === undefined || e.bookingDate <= q.to),
    );
    const offset = q.cursor === undefined ? 0 : decodeOffset(q.cursor);
    const limit = q.limit ?? 20;
    const page = filtered.slice(offset, offset + limit);
    const more = offset + limit < filtered.length;
    return reply.send({
      items: page.map((e) => toTransaction(e, account.accountId)),
      nextCursor: more ? Buffer.from(String(offset + limit)).toString('base64url') : null,
    });
  });
}

function toTransaction(e: LedgerEntry, accountId: string): Record<string, unknown> {
  return {
    id: e.id,
    accountId,
    bookingDate: e.bookingDate,
    amount: fromMinor(e.amountMinor),
    currency: DEMO_CURRENCY,
    creditDebitIndicator: e.creditDebitIndicator,
    status: e.status,
    ...(e.counterpartyName ? { counterpartyName: e.counterpartyName } : {}),
    ...(e.remittanceInformation ? { remittanceInformation: e.remittanceInformation } : {}),
  };
}

function decodeOffset(cursor: string): number {
  const n = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isInteger(n) || n < 0) {
    throw new PaymentError('VALIDATION_FAILED', 'The cursor is not one this service issued.', [
      { pointer: '/query/cursor', code: 'INVALID_CURSOR', message: 'not a cursor from nextCursor' },
    ]);
  }
  return n;
}

function amountOf(record: Record<string, unknown>): string | null {
  const value = at(record, 'paymentInstruction', 'amount', 'instructedAmount');
  return typeof value === 'number' ? value.toFixed(2) : null;
}

interface AccountRow extends Record<string, unknown> {
  account_id: string;
  opening_balance: string;
  opened_at: string;
}

async function ensureAccount(db: SqlExecutor, owner: string, now: Date) {
  const accountId = demoIbanFor(owner);
  await db.execute(
    `INSERT INTO demo_accounts (owner, account_id, currency, opening_balance, opened_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (owner, account_id) DO NOTHING`,
    [owner, accountId, DEMO_CURRENCY, DEMO_OPENING_BALANCE, now.toISOString()],
  );
  const rows = await db.query<AccountRow>(
    'SELECT account_id, opening_balance, opened_at FROM demo_accounts WHERE owner = $1 AND account_id = $2',
    [owner, accountId],
  );
  const row = rows[0];
  if (!row) throw new Error('demo account vanished');
  return {
    accountId: row.account_id,
    openingBalance: row.opening_balance,
    openedAt: row.opened_at,
  };
}
