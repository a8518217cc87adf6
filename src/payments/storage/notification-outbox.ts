// The transactional outbox of status notifications: payments-repo.ts writes one row per status change
// (creation and cancellation included) with the same executor, so the event exists exactly when the
// change was committed (docs/decisions.md, D-265).
import type { SqlExecutor } from '../../shared/db/types.js';
import type { HistoryEvent } from '../domain/history.js';
import { notificationFor, type NotificationEvent } from '../domain/notification-event.js';
import type { IsoTransactionStatus } from '../domain/iso-status.js';
import type { PaymentStatus } from '../domain/lifecycle.js';

/** Writes the event of a history entry that moved the status; nothing for other entries. */
export async function enqueueNotification(
  tx: SqlExecutor,
  payment: { readonly id: string; readonly owner: string },
  version: number,
  at: string,
  history: HistoryEvent,
): Promise<void> {
  const event = notificationFor({
    kind: history.kind,
    paymentId: payment.id,
    version,
    owner: payment.owner,
    fromStatus: history.fromStatus,
    toStatus: history.toStatus,
    reason: history.reason,
    at,
  });
  if (!event) return;
  await tx.execute(
    `INSERT INTO payment_events (event_id, event_type, payment_id, payment_version, owner,
       from_status, to_status, iso_status, reason, occurred_at, dispatched_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL)`,
    [
      event.eventId,
      event.type,
      event.paymentId,
      event.paymentVersion,
      event.owner,
      event.fromStatus,
      event.toStatus,
      event.isoStatus,
      event.reason,
      event.occurredAt,
    ],
  );
}

export interface EventRow extends Record<string, unknown> {
  event_id: string;
  event_type: string;
  payment_id: string;
  payment_version: number | string;
  owner: string;
  from_status: string | null;
  to_status: string;
  iso_status: string;
  reason: string | null;
  occurred_at: string;
}

export const EVENT_COLUMNS =
  'event_id, event_type, payment_id, payment_version, owner, from_status, to_status, iso_status, reason, occurred_at';

export function eventFromRow(row: EventRow): NotificationEvent {
  return {
    eventId: row.event_id,
    type: row.event_type as NotificationEvent['type'],
    paymentId: row.payment_id,
    paymentVersion: Number(row.payment_version),
    owner: row.owner,
    fromStatus: row.from_status as PaymentStatus | null,
    toStatus: row.to_status as PaymentStatus,
    isoStatus: row.iso_status as IsoTransactionStatus,
    reason: row.reason,
    occurredAt: row.occurred_at,
  };
}

/** The payment's events, oldest first (tests and the operator's view). */
export async function eventsOf(tx: SqlExecutor, paymentId: string): Promise<NotificationEvent[]> {
  const rows = await tx.query<EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM payment_events WHERE payment_id = $1 ORDER BY payment_version`,
    [paymentId],
  );
  return rows.map(eventFromRow);
}
