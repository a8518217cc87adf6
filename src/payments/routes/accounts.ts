// The small user-scoped accounts API (/accounts/v1): getMyAccountBalance, getMyTransactionHistory, and
// the document at /accounts/v1/openapi.json. Each user's demo account is created on first access and
// reflects the user's own payments (see domain/demo-account.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEMO_CURRENCY, fromMinor, type LedgerEntry } from '../domain/demo-account.js';
import { PaymentError } from '../domain/errors.js';
import {
  checkRequest,
  requireUser,
  sendPaymentError,
  type PaymentsContext,
} from '../http/context.js';
import { myAccount } from '../usecases/accounts.js';
import { inUseCase, recordAnswer } from '../tracing.js';

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
    return myAccount(ctx.db, { owner: user.userId, accountId: query.accountId, now: ctx.now() });
  };

  app.get('/me/balance', async (req, reply) =>
    inUseCase('getAccountBalance', async (span) => {
      const { account, totals } = await accountFor(req, 'getMyAccountBalance');
      recordAnswer(span, { statusCode: 200 });
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
    }),
  );

  app.get('/me/transactions', async (req, reply) =>
    inUseCase('getAccountTransactions', async (span) => {
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
      recordAnswer(span, { statusCode: 200, count: page.length });
      return reply.send({
        items: page.map((e) => toTransaction(e, account.accountId)),
        nextCursor: more ? Buffer.from(String(offset + limit)).toString('base64url') : null,
      });
    }),
  );
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
