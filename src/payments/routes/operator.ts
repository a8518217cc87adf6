// Internal operator endpoint for status changes coming from the clearing side:
//   POST /internal/payments/{id}/status  Authorization: Bearer <operator token>
//   body { "status": "CONFIRMED", "reason": "optional ISO code", "description": "optional text" }
// Separate from user identity, not part of the OpenAPI tool catalogue. Applies only transitions of the
// lifecycle table and records each change (time, from, to, reason, actor, description) in the payment's
// history (payment_history, kind STATUS_CHANGED), in the transaction of the change.
import type { FastifyInstance } from 'fastify';
import { PaymentError } from '../domain/errors.js';
import { isPaymentStatus, TRANSITIONS } from '../domain/lifecycle.js';
import { sendPaymentError, type PaymentsContext } from '../http/context.js';
import { operatorAuthenticator } from '../http/operator-auth.js';
import { etagOf } from '../usecases/payments.js';
import { changePaymentStatus } from '../usecases/status.js';

export interface OperatorRoutesOptions {
  readonly ctx: PaymentsContext;
  readonly tokens: readonly string[];
}

const REASON = /^[A-Za-z0-9_-]{1,35}$/;

export async function operatorRoutes(
  app: FastifyInstance,
  opts: OperatorRoutesOptions,
): Promise<void> {
  const { ctx } = opts;
  const authenticate = operatorAuthenticator(opts.tokens);
  app.removeContentTypeParser('text/plain'); // JSON bodies only: anything else → 415
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof PaymentError) return sendPaymentError(reply, error);
    throw error;
  });

  app.post<{ Params: { id: string } }>('/internal/payments/:id/status', async (req, reply) => {
    const actor = authenticate(req);
    const body = (
      typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : {}
    ) as Record<string, unknown>;
    const errors = [];
    if (!isPaymentStatus(body['status'])) {
      errors.push({
        pointer: '/status',
        code: 'INVALID_ENUM',
        message: `must be one of: ${Object.keys(TRANSITIONS).join(', ')}`,
      });
    }
    for (const key of Object.keys(body)) {
      if (!['status', 'reason', 'description'].includes(key)) {
        errors.push({ pointer: `/${key}`, code: 'UNKNOWN_FIELD', message: 'is not a known field' });
      }
    }
    if (
      body['reason'] !== undefined &&
      (typeof body['reason'] !== 'string' || !REASON.test(body['reason']))
    ) {
      errors.push({
        pointer: '/reason',
        code: 'INVALID_FORMAT',
        message: 'must be a reason code of 1 to 35 letters, digits, _ or -',
      });
    }
    if (
      body['description'] !== undefined &&
      (typeof body['description'] !== 'string' || body['description'].length > 140)
    ) {
      errors.push({
        pointer: '/description',
        code: 'TOO_LONG',
        message: 'must be a string of at most 140 characters',
      });
    }
    const to = body['status'];
    if (errors.length > 0 || !isPaymentStatus(to)) {
      throw new PaymentError('VALIDATION_FAILED', 'The status change is invalid.', errors);
    }
    const reason = typeof body['reason'] === 'string' ? body['reason'] : null;
    const description = typeof body['description'] === 'string' ? body['description'] : undefined;
    const result = await changePaymentStatus(ctx.db, {
      id: req.params.id,
      to,
      reason,
      description,
      actor,
      now: ctx.now(),
      rates: await ctx.acceptance?.rates.current(),
    });
    req.log.info(
      { paymentId: result.updated.id, status: to, actor },
      'payment status changed by operator',
    );
    return reply.header('ETag', etagOf(result.updated.version)).send({
      identification: result.updated.id,
      status: result.updated.status,
      reason: result.updated.reason,
      version: result.updated.version,
      history: result.history,
    });
  });
}
