// The webhook delivery log as the operator sees it (list, one delivery with its attempts) and the
// redelivery of one delivery, independent of HTTP details.
import type { Database } from '../../shared/db/types.js';
import { PaymentError } from '../domain/errors.js';
import {
  findDelivery,
  listDeliveries,
  scheduleRedelivery,
  type DeliveryQuery,
  type DeliveryView,
} from '../storage/webhook-deliveries.js';

export { DELIVERY_STATES, type DeliveryState } from '../storage/webhook-deliveries.js';

/** A page of deliveries, newest first, and whether more exist. */
export async function deliveryPage(
  db: Database,
  query: DeliveryQuery,
): Promise<{ items: DeliveryView[]; more: boolean }> {
  const rows = await listDeliveries(db, query);
  return { items: rows.slice(0, query.limit), more: rows.length > query.limit };
}

/** One delivery with its attempt log; 404 DELIVERY_NOT_FOUND when there is none. */
export async function deliveryDetails(db: Database, deliveryId: string) {
  const found = await findDelivery(db, deliveryId);
  if (!found) throw notFound(deliveryId);
  const { inFlight: _inFlight, ...view } = found;
  return view;
}

/**
 * Sends the delivery again as soon as a worker picks it up, with a fresh attempt budget (a delivered or
 * dead-lettered one too); 409 DELIVERY_IN_FLIGHT while an attempt is under way.
 */
export async function redeliver(db: Database, deliveryId: string, now: Date) {
  return db.transaction(async (tx) => {
    const found = await findDelivery(tx, deliveryId);
    if (!found) throw notFound(deliveryId);
    if (!(await scheduleRedelivery(tx, deliveryId, now)))
      throw new PaymentError(
        'DELIVERY_IN_FLIGHT',
        `Delivery ${deliveryId} is being attempted right now; retry when the attempt is recorded.`,
      );
    const after = await findDelivery(tx, deliveryId);
    if (!after) throw notFound(deliveryId);
    const { inFlight: _inFlight, ...view } = after;
    return view;
  });
}

function notFound(deliveryId: string): PaymentError {
  return new PaymentError('DELIVERY_NOT_FOUND', `No webhook delivery ${deliveryId} was found.`);
}
