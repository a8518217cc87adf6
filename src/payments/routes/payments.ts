// HTTP routes of the payment-order API (create, get, list, update, cancel, history, validate) and the
// OpenAPI document at {base}/openapi.json. Register with `app.register(paymentRoutes, { ctx, prefix })`.
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
import { historyPage, listPayments } from '../storage/payments-repo.js';
import {
  cancelPayment,
  createPayment,
  etagOf,
  loadOwned,
  render,
  renderHistoryEntry,
  updatePayment,
  userRuleContext,
  validateRecord,
} from '../usecases/payments.js';
import { decodeCursor, decodeHistoryCursor, encodeCursor, encodeHistoryCursor } from './cursor.js';

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

  app.post('/payments', async (req, reply) => {
    const user = requireUser(await ctx.identity.resolve(req));
    const { body: record } = checkedRequest(ctx, 'createPayment', req);
    const path = `${basePath}/payments`;
    const outcome = await ctx.idempotency.run(
      idempotencyFor(req, `user:${user.userId}`, path, record),
      (tx) =>
        createPayment(tx, {
          owner: user.userId,
          record,
          usedMechanism: header(req, 'used-mechanism'),
          basePath,
          now: ctx.now(),
        }),
    );
    return sendOutcome(reply, outcome);
  });

  app.get('/payments', async (req, reply) => {
    const user = requireUser(await ctx.identity.resolve(req));
    const { query } = checkedRequest(ctx, 'listPayments', req);
    const limit = query.limit ?? 20;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const now = ctx.now();
    const rows = await listPayments(ctx.db, {
      owner: user.userId,
      limit,
      ...(query.status ? { status: query.status } : {}),
      ...(after ? { after } : {}),
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return reply.send({
      items: page.map((p) => render(p, now)),
      nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
    });
  });

  app.get<{ Params: Params }>('/payments/:externalReferenceNo', async (req, reply) => {
    const user = requireUser(await ctx.identity.resolve(req));
    checkedRequest(ctx, 'getPayment', req);
    const payment = await loadOwned(ctx.db, req.params.externalReferenceNo, user.userId);
    return reply.header('ETag', etagOf(payment.version)).send(render(payment, ctx.now()));
  });

  app.get<{ Params: Params }>('/payments/:externalReferenceNo/history', async (req, reply) => {
    const user = requireUser(await ctx.identity.resolve(req));
    const { query } = checkedRequest(ctx, 'getPaymentHistory', req);
    const limit = query.limit ?? 20;
    const before = query.cursor === undefined ? undefined : decodeHistoryCursor(query.cursor);
    const entries = await ctx.db.transaction(async (tx) => {
      const payment = await loadOwned(tx, req.params.externalReferenceNo, user.userId);
      return historyPage(tx, payment.id, { limit, ...(before !== undefined ? { before } : {}) });
    });
    const page = entries.slice(0, limit);
    const last = page[page.length - 1];
    return reply.send({
      items: page.map(renderHistoryEntry),
      nextCursor: entries.length > limit && last ? encodeHistoryCursor(last.version) : null,
    });
  });

  app.put<{ Params: Params }>('/payments/:externalReferenceNo', async (req, reply) => {
    const user = requireUser(await ctx.identity.resolve(req));
    const { body: record } = checkedRequest(ctx, 'updatePayment', req);
    const id = req.params.externalReferenceNo;
    const claim = idempotencyFor(req, `user:${user.userId}`, `${basePath}/payments/${id}`, record);
    const outcome = await ctx.idempotency.run(claim, (tx) =>
      updatePayment(tx, {
        owner: user.userId,
        id,
        record,
        ifMatch: header(req, 'if-match'),
        usedMechanism: header(req, 'used-mechanism'),
        now: ctx.now(),
      }),
    );
    return sendOutcome(reply, outcome);
  });

  app.post<{ Params: Params }>('/payments/:externalReferenceNo/cancel', async (req, reply) => {
    const user = requireUser(await ctx.identity.resolve(req));
    const request = checkedRequest(ctx, 'cancelPayment', req).body ?? {};
    const id = req.params.externalReferenceNo;
    const claim = idempotencyFor(
      req,
      `user:${user.userId}`,
      `${basePath}/payments/${id}/cancel`,
      request,
    );
    const outcome = await ctx.idempotency.run(claim, (tx) =>
      cancelPayment(tx, { owner: user.userId, id, request, now: ctx.now() }),
    );
    return sendOutcome(reply, outcome);
  });

  app.post('/payments/validate', async (req: FastifyRequest, reply: FastifyReply) => {
    const identity = await ctx.identity.resolve(req); // a spoofed identity is refused even here
    const { body: record } = checkedRequest(ctx, 'validatePayment', req);
    const request = { now: ctx.now(), usedMechanism: header(req, 'used-mechanism') };
    const context =
      identity.kind === 'user' ? await userRuleContext(ctx.db, identity.userId, request) : request;
    return reply.code(201).send(validateRecord(record, context));
  });
}
