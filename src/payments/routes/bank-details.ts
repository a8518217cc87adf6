// POST {base}/payments/fetch-bank-details — bank directory look-up behind the `api-key` header (keys from
// configuration, compared in constant time; the gateway injects the key, agents never see it).
// Register with `app.register(bankDetailsRoutes, { ctx, store, bankLookup: config.payments.bankLookup, prefix })`.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { problem, sendProblem } from '../../shared/http/problem.js';
import { lookupBank, type BankLookupRequest } from '../directory/lookup.js';
import type { DirectoryStore } from '../directory/store.js';
import { PaymentError } from '../domain/errors.js';
import { checkRequest, header, sendPaymentError, type PaymentsContext } from '../http/context.js';
import { inUseCase, recordAnswer } from '../tracing.js';

export interface BankDetailsRoutesOptions {
  readonly ctx: PaymentsContext;
  readonly store: DirectoryStore;
  readonly bankLookup: { readonly apiKeys: readonly string[]; readonly nameMatchThreshold: number };
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Compares against every configured key (fixed-length digests, no early exit). */
export function apiKeyMatcher(keys: readonly string[]): (candidate: string) => boolean {
  const expected = keys.map(digest);
  return (candidate) => {
    const given = digest(candidate);
    let match = false;
    for (const key of expected) match = timingSafeEqual(key, given) || match;
    return match;
  };
}

function unauthorized(reply: FastifyReply, code: string, detail: string): FastifyReply {
  reply.header('WWW-Authenticate', 'ApiKey header="api-key"');
  return sendProblem(reply, problem(401, code, detail));
}

export async function bankDetailsRoutes(
  app: FastifyInstance,
  opts: BankDetailsRoutesOptions,
): Promise<void> {
  const { ctx, store } = opts;
  const matches = apiKeyMatcher(opts.bankLookup.apiKeys);
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof PaymentError) return sendPaymentError(reply, error);
    throw error;
  });

  app.post('/payments/fetch-bank-details', async (req, reply) =>
    inUseCase('fetchBankDetails', async (span) => {
      const key = header(req, 'api-key');
      if (key === undefined || key === '') {
        recordAnswer(span, { statusCode: 401, errorCode: 'API_KEY_MISSING' });
        return unauthorized(reply, 'API_KEY_MISSING', 'The api-key header is required.');
      }
      if (!matches(key)) {
        recordAnswer(span, { statusCode: 401, errorCode: 'API_KEY_INVALID' });
        return unauthorized(reply, 'API_KEY_INVALID', 'The api-key is not valid.');
      }
      checkRequest(ctx, 'fetchBankDetails', req);
      const outcome = await lookupBank(store, req.body as BankLookupRequest, {
        nameThreshold: opts.bankLookup.nameMatchThreshold,
      });
      if (outcome.kind === 'malformed') {
        recordAnswer(span, { statusCode: 400, errorCode: 'IDENTIFICATION_INVALID' });
        return sendProblem(
          reply,
          problem(400, 'IDENTIFICATION_INVALID', outcome.reason, [
            { pointer: outcome.pointer, code: outcome.code, message: outcome.reason },
          ]),
        );
      }
      if (outcome.kind === 'not-found') {
        recordAnswer(span, { statusCode: 404, errorCode: 'BANK_NOT_FOUND' });
        return sendProblem(reply, problem(404, 'BANK_NOT_FOUND', outcome.reason));
      }
      recordAnswer(span, { statusCode: 200 });
      return reply.code(200).send(outcome.details);
    }),
  );
}
