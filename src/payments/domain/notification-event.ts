// Status notifications (pure): which history entries become events, the event's identity and JSON payload,
// the webhook signature and the retry back-off. Written to the outbox by storage/notification-outbox.ts,
// sent by notifications/delivery-worker.ts; documented in docs/payments-notifications.md.
import type { WebhookEventType } from '../../config/payments-webhooks.js';
import type { HistoryKind } from './history.js';
import { isoStatusOf, type IsoTransactionStatus } from './iso-status.js';
import type { PaymentStatus } from './lifecycle.js';

export type { WebhookEventType } from '../../config/payments-webhooks.js';

/** One status change as written to the outbox, in the transaction of the change. */
export interface NotificationEvent {
  /** Stable and unique: the same change always has the same id (receivers de-duplicate on it). */
  readonly eventId: string;
  readonly type: WebhookEventType;
  readonly paymentId: string;
  readonly paymentVersion: number;
  readonly owner: string;
  readonly fromStatus: PaymentStatus | null;
  readonly toStatus: PaymentStatus;
  readonly isoStatus: IsoTransactionStatus;
  readonly reason: string | null;
  readonly occurredAt: string;
}

/** The event type of a history entry that moved the status (or created the payment). */
export function eventTypeOf(kind: HistoryKind): WebhookEventType {
  if (kind === 'CREATED') return 'payment.created';
  if (kind === 'CANCELLED') return 'payment.cancelled';
  return 'payment.status_changed';
}

/** `evt_<payment id>_v<version>`: a payment version is produced by exactly one change. */
export function eventIdOf(paymentId: string, version: number): string {
  return `evt_${paymentId}_v${version}`;
}

/**
 * The event for a history entry, or undefined when the entry did not change the status (an update of the
 * content only, a cancellation of some instances of a schedule).
 */
export function notificationFor(change: {
  readonly kind: HistoryKind;
  readonly paymentId: string;
  readonly version: number;
  readonly owner: string;
  readonly fromStatus: PaymentStatus | null | undefined;
  readonly toStatus: PaymentStatus | undefined;
  readonly reason: string | null;
  readonly at: string;
}): NotificationEvent | undefined {
  const { toStatus } = change;
  if (toStatus === undefined) return undefined;
  const fromStatus = change.fromStatus ?? null;
  if (fromStatus === toStatus) return undefined;
  return {
    eventId: eventIdOf(change.paymentId, change.version),
    type: eventTypeOf(change.kind),
    paymentId: change.paymentId,
    paymentVersion: change.version,
    owner: change.owner,
    fromStatus,
    toStatus,
    isoStatus: isoStatusOf(toStatus),
    reason: change.reason,
    occurredAt: change.at,
  };
}

/** The JSON body a receiver gets (the same for every attempt of the event). */
export function eventPayload(e: NotificationEvent): string {
  return JSON.stringify({
    id: e.eventId,
    type: e.type,
    occurredAt: e.occurredAt,
    data: {
      paymentId: e.paymentId,
      paymentVersion: e.paymentVersion,
      owner: e.owner,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      isoStatus: e.isoStatus,
      reasonCode: e.reason,
    },
  });
}

// The signature scheme is shared with the gateway's approval webhook (src/shared/webhook-signature.ts).
export {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  webhookSignature,
} from '../../shared/webhook-signature.js';

export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
}

/**
 * Delay before attempt `attempt + 1` after `attempt` failed (attempt ≥ 1): exponential (initial × 2^(n-1),
 * capped at max), with "equal jitter" — half of it fixed, half uniformly random — so receivers that
 * failed together are not retried together. `random` returns [0, 1).
 */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number,
): number {
  const exponential = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt - 1, 30));
  const half = exponential / 2;
  return Math.round(half + random() * half);
}
