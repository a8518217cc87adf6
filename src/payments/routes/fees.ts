// POST {base}/payments/fetch-fees — the optionally authenticated fee quote. Anonymous callers get list
// prices; a user vouched for by the gateway (identity resolver) gets their configured pricing tier.
// Register with `app.register(feeRoutes, { ctx, fees: config.payments.fees, prefix })`.
import type { FastifyInstance } from 'fastify';
import { PaymentError } from '../domain/errors.js';
import { quoteFees, type FeesSettings } from '../domain/fees/quote.js';
import { RateSource } from '../usecases/rates.js';
import { checkedRequest, header, sendPaymentError, type PaymentsContext } from '../http/context.js';
import { inUseCase, recordAnswer } from '../tracing.js';

export interface FeeRoutesOptions {
  readonly ctx: PaymentsContext;
  readonly fees: FeesSettings;
  /** Refreshable exchange rates; default: the inline `fees.rates` table only. */
  readonly rates?: RateSource;
}

export async function feeRoutes(app: FastifyInstance, opts: FeeRoutesOptions): Promise<void> {
  const { ctx, fees } = opts;
  const rates =
    opts.rates ??
    new RateSource(fees.rates, (err, file) =>
      app.log.warn({ err, file }, 'exchange rate file unreadable; keeping the previous rates'),
    );
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof PaymentError) return sendPaymentError(reply, error);
    throw error;
  });

  app.post('/payments/fetch-fees', async (req, reply) =>
    inUseCase('fetchPaymentFees', async (span) => {
      const identity = await ctx.identity.resolve(req);
      const { body } = checkedRequest(ctx, 'fetchPaymentFees', req);
      const mechanism = header(req, 'used-mechanism');
      const quote = quoteFees(body, {
        fees,
        rates: await rates.current(),
        now: ctx.now(),
        ...(identity.kind === 'user' ? { userId: identity.userId } : {}),
        ...(mechanism !== undefined ? { mechanismHeader: mechanism } : {}),
      });
      recordAnswer(span, { statusCode: 201 });
      // Personalised answers must never be served from a shared cache to another caller.
      reply.header('Cache-Control', 'private, no-store');
      return reply.code(201).send(quote);
    }),
  );
}
