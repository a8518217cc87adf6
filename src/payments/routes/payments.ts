// HTTP routes of the payment-order API (create, get, list, update, cancel, history, validate) and the
// OpenAPI document at {base}/openapi.json: each checks and types its request (checkedRequest), resolves
// the caller, calls its use case and sends the answer. Register with
// `app.register(paymentRoutes, { ctx, prefix })`.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PaymentError } from '../domain/errors.js';
import {
  checkedRequest,
  header,
  idempotencyFor,
  requireUser,
  sendOutcome,
  sendPaymentError,
  type PaymentsContext,
} from '../http/context.js';
import { cancelPayment, createPayment, updatePayment } from '../usecases/payments.js';
import { getPayment, listPayments, paymentHistory, validatePayment } from '../usecases/queries.js';
import { decodeCursor, decodeHistoryCursor, encodeCursor, encodeHistoryCursor } from './cursor.js';
import { inUseCase, paymentStatusIn, recordAnswer, recordOutcome } from '../tracing.js';

export interface PaymentRoutesOptions {
  readonly ctx: PaymentsContext;
  readonly document: Record<string, unknown>;
  /** The base path the routes are mounted under (used in Location headers). */
  readonly basePath: string;
}

type Params = { externalReferenceNo: string };

export async function paymentRoutes(
  app: FastifyInstance,
  opts: PaymentRoutesOptions,
): Promise<void> {
  const { ctx, basePath } = opts;
  const documentJson = JSON.stringify(opts.document);
  app.removeContentTypeParser('text/plain'); // bodies are JSON only: anything else → 415
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof PaymentError) return sendPaymentError(reply, error);
    throw error;
  });

  app.get('/openapi.json', async (_req, reply) =>
    reply.type('application/json').send(documentJson),
  );

  app.post('/payments', async (req, reply) =>
    inUseCase('createPaymentOrder', async (span) => {
      const user = requireUser(await ctx.identity.resolve(req));
      const { body: order } = checkedRequest(ctx, 'createPayment', req);
      const claim = idempotencyFor(req, `user:${user.userId}`, `${basePath}/payments`, order);
      const outcome = await createPayment(ctx, {
        owner: user.userId,
        order,
        usedMechanism: header(req, 'used-mechanism'),
        basePath,
        confirmedDuplicate: header(req, 'confirm-duplicate')?.trim().toLowerCase() === 'true',
        claim,
        now: ctx.now(),
      });
      recordOutcome(span, outcome, claim !== undefined);
      return sendOutcome(reply, outcome);
    }),
  );

  app.get('/payments', async (req, reply) =>
    inUseCase('listPaymentOrders', async (span) => {
      const user = requireUser(await ctx.identity.resolve(req));
      const { query } = checkedRequest(ctx, 'listPayments', req);
      const page = await listPayments(ctx.db, {
        owner: user.userId,
        limit: query.limit ?? 20,
        status: query.status,
        after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
        now: ctx.now(),
      });
      recordAnswer(span, { statusCode: 200, count: page.items.length });
      return reply.send({
        items: page.items,
        nextCursor: page.next ? encodeCursor(page.next) : null,
      });
    }),
  );

  app.get<{ Params: Params }>('/payments/:externalReferenceNo', async (req, reply) =>
    inUseCase('getPaymentOrder', async (span) => {
      const user = requireUser(await ctx.identity.resolve(req));
      checkedRequest(ctx, 'getPayment', req);
      const { order, etag } = await getPayment(ctx.db, {
        owner: user.userId,
        id: req.params.externalReferenceNo,
        now: ctx.now(),
      });
      recordAnswer(span, { statusCode: 200, paymentStatus: paymentStatusIn(order) });
      return reply.header('ETag', etag).send(order);
    }),
  );

  app.get<{ Params: Params }>('/payments/:externalReferenceNo/history', async (req, reply) =>
    inUseCase('getPaymentOrderHistory', async (span) => {
      const user = requireUser(await ctx.identity.resolve(req));
      const { query } = checkedRequest(ctx, 'getPaymentHistory', req);
      const page = await paymentHistory(ctx.db, {
        owner: user.userId,
        id: req.params.externalReferenceNo,
        limit: query.limit ?? 20,
        before: query.cursor === undefined ? undefined : decodeHistoryCursor(query.cursor),
      });
      recordAnswer(span, { statusCode: 200, count: page.items.length });
      return reply.send({
        items: page.items,
        nextCursor: page.next !== undefined ? encodeHistoryCursor(page.next) : null,
      });
    }),
  );

  app.put<{ Params: Params }>('/payments/:externalReferenceNo', async (req, reply) =>
    inUseCase('updatePaymentOrder', async (span) => {
      const user = requireUser(await ctx.identity.resolve(req));
      const { body: order } = checkedRequest(ctx, 'updatePayment', req);
      const id = req.params.externalReferenceNo;
      const claim = idempotencyFor(req, `user:${user.userId}`, `${basePath}/payments/${id}`, order);
      const outcome = await updatePayment(ctx, {
        owner: user.userId,
        id,
        order,
        ifMatch: header(req, 'if-match'),
        usedMechanism: header(req, 'used-mechanism'),
        claim,
        now: ctx.now(),
      });
      recordOutcome(span, outcome, claim !== undefined);
      return sendOutcome(reply, outcome);
    }),
  );

  app.post<{ Params: Params }>('/payments/:externalReferenceNo/cancel', async (req, reply) =>
    inUseCase('cancelPaymentOrder', async (span) => {
      const user = requireUser(await ctx.identity.resolve(req));
      const request = checkedRequest(ctx, 'cancelPayment', req).body ?? {};
      const id = req.params.externalReferenceNo;
      const claim = idempotencyFor(
        req,
        `user:${user.userId}`,
        `${basePath}/payments/${id}/cancel`,
        request,
      );
      const outcome = await cancelPayment(ctx, {
        owner: user.userId,
        id,
        request,
        claim,
        now: ctx.now(),
      });
      recordOutcome(span, outcome, claim !== undefined);
      return sendOutcome(reply, outcome);
    }),
  );

  app.post('/payments/validate', async (req: FastifyRequest, reply: FastifyReply) =>
    inUseCase('validatePaymentOrder', async (span) => {
      const identity = await ctx.identity.resolve(req); // a spoofed identity is refused even here
      const { body: order } = checkedRequest(ctx, 'validatePayment', req);
      const validated = await validatePayment(ctx.db, {
        owner: identity.kind === 'user' ? identity.userId : undefined,
        order,
        usedMechanism: header(req, 'used-mechanism'),
        now: ctx.now(),
        acceptance: ctx.acceptance,
        directoryModes: ctx.directoryModes,
      });
      recordAnswer(span, { statusCode: 201, paymentStatus: paymentStatusIn(validated) });
      return reply.code(201).send(validated);
    }),
  );
}
