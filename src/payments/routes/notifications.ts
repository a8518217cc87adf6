// Operator routes of the status notifications (operator token, as routes/operator.ts):
//   GET  /internal/payments/webhook-deliveries?paymentId=&state=&limit=&cursor=   the delivery log
//   GET  /internal/payments/webhook-deliveries/{deliveryId}                      one delivery, its attempts
//   POST /internal/payments/webhook-deliveries/{deliveryId}/redeliver            send it again
//   GET  /internal/payments/{id}/status-report   pain.002 status report (Accept: application/json or
//                                                application/xml)
// Documented in docs/payments-notifications.md.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PaymentError, type FieldProblem } from '../domain/errors.js';
import { header, sendPaymentError, type PaymentsContext } from '../http/context.js';
import { operatorAuthenticator } from '../http/operator-auth.js';
import {
  deliveryDetails,
  deliveryPage,
  redeliver,
  DELIVERY_STATES,
  type DeliveryState,
} from '../usecases/deliveries.js';
import { paymentStatusReport, statusReportXml } from '../usecases/status-report.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export interface NotificationRoutesOptions {
  readonly ctx: PaymentsContext;
  readonly tokens: readonly string[];
}

const DELIVERIES = '/internal/payments/webhook-deliveries';
const ID = /^[!-~]{1,128}$/;

export async function notificationRoutes(
  app: FastifyInstance,
  opts: NotificationRoutesOptions,
): Promise<void> {
  const { ctx } = opts;
  const authenticate = operatorAuthenticator(opts.tokens);
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof PaymentError) return sendPaymentError(reply, error);
    throw error;
  });

  app.get(DELIVERIES, async (req, reply) => {
    authenticate(req);
    const q = deliveryQuery(req);
    const page = await deliveryPage(ctx.db, q);
    const last = page.items[page.items.length - 1];
    return reply.send({
      items: page.items,
      nextCursor:
        page.more && last ? encodeCursor({ createdAt: last.createdAt, id: last.deliveryId }) : null,
    });
  });

  app.get<{ Params: { deliveryId: string } }>(`${DELIVERIES}/:deliveryId`, async (req, reply) => {
    authenticate(req);
    return reply.send(await deliveryDetails(ctx.db, req.params.deliveryId));
  });

  app.post<{ Params: { deliveryId: string } }>(
    `${DELIVERIES}/:deliveryId/redeliver`,
    async (req, reply) => {
      const actor = authenticate(req);
      const delivery = await redeliver(ctx.db, req.params.deliveryId, ctx.now());
      req.log.info(
        { deliveryId: delivery.deliveryId, eventId: delivery.eventId, actor },
        'webhook redelivery requested by operator',
      );
      return reply.code(202).send(delivery);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/internal/payments/:id/status-report',
    async (req, reply) => {
      authenticate(req);
      const format = negotiate(header(req, 'accept'));
      const report = await paymentStatusReport(ctx.db, req.params.id, ctx.now());
      const filename = `${report.paymentId}-pain.002.${format}`;
      reply.header('Content-Disposition', `attachment; filename="${filename}"`);
      reply.header('Vary', 'Accept');
      if (format === 'xml') {
        return reply.type('application/xml; charset=utf-8').send(statusReportXml(report));
      }
      return reply.type('application/json; charset=utf-8').send(report);
    },
  );
}

function deliveryQuery(req: FastifyRequest) {
  const query = (req.query ?? {}) as Record<string, unknown>;
  const errors: FieldProblem[] = [];
  const one = (name: string): string | undefined => {
    const v = query[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') {
      errors.push({
        pointer: `/query/${name}`,
        code: 'INVALID_TYPE',
        message: 'must be given once',
      });
      return undefined;
    }
    return v;
  };
  for (const key of Object.keys(query)) {
    if (!['paymentId', 'state', 'limit', 'cursor'].includes(key))
      errors.push({
        pointer: `/query/${key}`,
        code: 'UNKNOWN_FIELD',
        message: 'is not a known parameter',
      });
  }
  const paymentId = one('paymentId');
  if (paymentId !== undefined && !ID.test(paymentId))
    errors.push({
      pointer: '/query/paymentId',
      code: 'INVALID_FORMAT',
      message: 'must be 1 to 128 visible ASCII characters',
    });
  const state = one('state');
  if (state !== undefined && !(DELIVERY_STATES as readonly string[]).includes(state))
    errors.push({
      pointer: '/query/state',
      code: 'INVALID_ENUM',
      message: `must be one of: ${DELIVERY_STATES.join(', ')}`,
    });
  const limitText = one('limit');
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    errors.push({
      pointer: '/query/limit',
      code: 'OUT_OF_RANGE',
      message: 'must be an integer from 1 to 100',
    });
  const cursor = one('cursor');
  if (errors.length > 0)
    throw new PaymentError('VALIDATION_FAILED', 'The delivery query is invalid.', errors);
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  return {
    paymentId,
    state: state as DeliveryState | undefined,
    limit,
    after: after === undefined ? undefined : { createdAt: after.createdAt, deliveryId: after.id },
  };
}

/** json or xml from an Accept header (q-values honoured; absent or *\/* → json); 406 otherwise. */
export function negotiate(accept: string | undefined): 'json' | 'xml' {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return { type, q: q === undefined ? 1 : Number(q.slice(2)), index };
    })
    .filter((r) => Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type } of ranges) {
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return 'json';
    if (type === 'application/xml' || type === 'text/xml') return 'xml';
  }
  throw new PaymentError(
    'NOT_ACCEPTABLE',
    'The status report is offered as application/json or application/xml.',
  );
}
