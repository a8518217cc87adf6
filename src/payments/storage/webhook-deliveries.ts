// Webhook deliveries and their log. One delivery per (event, receiver URL); every attempt is a row of
// payment_webhook_attempts. Safe across replicas: an event is fanned out and a delivery is claimed under
// `FOR UPDATE SKIP LOCKED` on PostgreSQL (SQLite serialises writers with BEGIN IMMEDIATE), and a claimed
// delivery carries a lease (token + expiry) so no other worker sends it until the lease holder has
// recorded its attempt or the lease has expired (a crashed worker): at-least-once, never two at a time
// (docs/decisions.md, D-267).
import { randomUUID } from 'node:crypto';
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { NotificationEvent, WebhookEventType } from '../domain/notification-event.js';
import { EVENT_COLUMNS, eventFromRow, type EventRow } from './notification-outbox.js';

export const DELIVERY_STATES = ['PENDING', 'DELIVERED', 'DEAD'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What the worker fans events out to (the configured receivers, without their secrets). */
export interface DeliveryTarget {
  readonly url: string;
  readonly events?: readonly WebhookEventType[] | undefined;
}

const skipLocked = (tx: SqlExecutor) =>
  tx.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';

/**
 * Creates the deliveries of up to `limit` events not yet fanned out (oldest first), one per receiver
 * that wants the event's type, and marks the events dispatched; the number of events dispatched.
 */
export function dispatchEvents(
  db: Database,
  targets: readonly DeliveryTarget[],
  now: Date,
  limit: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM payment_events WHERE dispatched_at IS NULL
       ORDER BY occurred_at, event_id LIMIT $1${skipLocked(tx)}`,
      [limit],
    );
    const at = now.toISOString();
    for (const row of rows) {
      const event = eventFromRow(row);
      for (const target of targets) {
        if (target.events !== undefined && !target.events.includes(event.type)) continue;
        await tx.execute(
          `INSERT INTO payment_webhook_deliveries (delivery_id, event_id, payment_id, url, state,
             attempts, budget_start, next_attempt_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'PENDING', 0, 0, $5, $5, $5)
           ON CONFLICT (event_id, url) DO NOTHING`,
          [`dlv_${randomUUID()}`, event.eventId, event.paymentId, target.url, at],
        );
      }
      await tx.execute('UPDATE payment_events SET dispatched_at = $2 WHERE event_id = $1', [
        event.eventId,
        at,
      ]);
    }
    return rows.length;
  });
}

/** A delivery claimed by one worker for one attempt. */
export interface ClaimedDelivery {
  readonly deliveryId: string;
  readonly url: string;
  /** The number of this attempt (1 for the first). */
  readonly attempt: number;
  /** Attempts made since the delivery was created or last redelivered, this one included. */
  readonly attemptsInBudget: number;
  readonly leaseToken: string;
  readonly event: NotificationEvent;
}

interface ClaimRow extends EventRow {
  delivery_id: string;
  url: string;
  attempts: number | string;
  budget_start: number | string;
}

/**
 * Claims up to `limit` due deliveries (PENDING, next attempt reached, no live lease): each gets a fresh
 * lease until `now + leaseMs` and its attempt counter is raised, in one transaction, so a worker that
 * dies mid-send still counts the attempt and another takes the delivery over when the lease expires.
 */
export function claimDueDeliveries(
  db: Database,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  return db.transaction(async (tx) => {
    const at = now.toISOString();
    const due = await tx.query<{ delivery_id: string }>(
      `SELECT delivery_id FROM payment_webhook_deliveries
       WHERE state = 'PENDING' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
       ORDER BY next_attempt_at, delivery_id LIMIT $2${skipLocked(tx)}`,
      [at, limit],
    );
    if (due.length === 0) return [];
    // One lease token for the pass: the rows are locked by this transaction, so two statements claim them.
    const token = randomUUID();
    const until = new Date(now.getTime() + leaseMs).toISOString();
    const ids = due.map((d) => d.delivery_id);
    const list = ids.map((_, k) => `$${k + 4}`).join(', ');
    await tx.execute(
      `UPDATE payment_webhook_deliveries SET lease_token = $1, lease_until = $2,
         attempts = attempts + 1, updated_at = $3 WHERE delivery_id IN (${list})`,
      [token, until, at, ...ids],
    );
    const rows = await tx.query<ClaimRow>(
      `SELECT d.delivery_id, d.url, d.attempts, d.budget_start,
         ${EVENT_COLUMNS.split(', ')
           .map((c) => `e.${c}`)
           .join(', ')}
       FROM payment_webhook_deliveries d JOIN payment_events e ON e.event_id = d.event_id
       WHERE d.lease_token = $1 ORDER BY d.next_attempt_at, d.delivery_id`,
      [token],
    );
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      url: row.url,
      attempt: Number(row.attempts),
      attemptsInBudget: Number(row.attempts) - Number(row.budget_start),
      leaseToken: token,
      event: eventFromRow(row),
    }));
  });
}

export type AttemptOutcome = 'DELIVERED' | 'RETRY' | 'DEAD';

export interface AttemptRecord {
  readonly deliveryId: string;
  readonly leaseToken: string;
  readonly attempt: number;
  readonly startedAt: Date;
  readonly durationMs: number;
  readonly outcome: AttemptOutcome;
  readonly statusCode: number | null;
  readonly error: string | null;
  /** When the next attempt is due (RETRY only). */
  readonly nextAttemptAt: Date | null;
  readonly finishedAt: Date;
}

/**
 * Records an attempt and moves the delivery on (delivered, retry at `nextAttemptAt`, or dead), releasing
 * the lease; false, and nothing written, when the lease was lost meanwhile (another worker took over).
 */
export async function recordAttempt(db: Database, a: AttemptRecord): Promise<boolean> {
  const [recorded] = await recordAttempts(db, [a]);
  return recorded === true;
}

/** recordAttempt for the attempts of one pass, in one transaction (one commit); one answer each. */
export function recordAttempts(
  db: Database,
  attempts: readonly AttemptRecord[],
): Promise<boolean[]> {
  return db.transaction(async (tx) => {
    const recorded: boolean[] = [];
    for (const a of attempts) recorded.push(await recordIn(tx, a));
    return recorded;
  });
}

async function recordIn(tx: SqlExecutor, a: AttemptRecord): Promise<boolean> {
  {
    const state: DeliveryState =
      a.outcome === 'DELIVERED' ? 'DELIVERED' : a.outcome === 'DEAD' ? 'DEAD' : 'PENDING';
    const finished = a.finishedAt.toISOString();
    const changed = await tx.execute(
      `UPDATE payment_webhook_deliveries SET state = $3, next_attempt_at = $4, lease_token = NULL,
         lease_until = NULL, last_status_code = $5, last_error = $6,
         delivered_at = CASE WHEN $3 = 'DELIVERED' THEN $7 ELSE delivered_at END, updated_at = $7
       WHERE delivery_id = $1 AND lease_token = $2`,
      [
        a.deliveryId,
        a.leaseToken,
        state,
        a.nextAttemptAt?.toISOString() ?? null,
        a.statusCode,
        a.error,
        finished,
      ],
    );
    if (changed !== 1) return false;
    await tx.execute(
      `INSERT INTO payment_webhook_attempts (delivery_id, attempt, started_at, duration_ms, outcome,
         status_code, error, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        a.deliveryId,
        a.attempt,
        a.startedAt.toISOString(),
        a.durationMs,
        a.outcome,
        a.statusCode,
        a.error,
        a.nextAttemptAt?.toISOString() ?? null,
      ],
    );
    return true;
  }
}

/** One delivery as the delivery log shows it. */
export interface DeliveryView {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly paymentId: string;
  readonly url: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly nextAttemptAt: string | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface AttemptView {
  readonly attempt: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly outcome: AttemptOutcome;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly nextAttemptAt: string | null;
}

interface DeliveryRow extends Record<string, unknown> {
  delivery_id: string;
  event_id: string;
  event_type: string;
  payment_id: string;
  url: string;
  state: string;
  attempts: number | string;
  next_attempt_at: string | null;
  lease_until: string | null;
  last_status_code: number | string | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

const DELIVERY_COLUMNS = `d.delivery_id, d.event_id, e.event_type, d.payment_id, d.url, d.state,
  d.attempts, d.next_attempt_at, d.lease_until, d.last_status_code, d.last_error, d.delivered_at,
  d.created_at, d.updated_at`;

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));

function deliveryFromRow(r: DeliveryRow): DeliveryView {
  return {
    deliveryId: r.delivery_id,
    eventId: r.event_id,
    eventType: r.event_type,
    paymentId: r.payment_id,
    url: r.url,
    state: r.state as DeliveryState,
    attempts: Number(r.attempts),
    nextAttemptAt: r.next_attempt_at,
    lastStatusCode: numberOrNull(r.last_status_code),
    lastError: r.last_error,
    deliveredAt: r.delivered_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export interface DeliveryQuery {
  readonly paymentId?: string | undefined;
  readonly state?: DeliveryState | undefined;
  readonly limit: number;
  /** Continue after this (createdAt, deliveryId) position, newest first. */
  readonly after?: { readonly createdAt: string; readonly deliveryId: string } | undefined;
}

/** Deliveries, newest first; one more than `limit` is fetched to tell whether more exist. */
export async function listDeliveries(tx: SqlExecutor, q: DeliveryQuery): Promise<DeliveryView[]> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (q.paymentId !== undefined) {
    params.push(q.paymentId);
    where.push(`d.payment_id = $${params.length}`);
  }
  if (q.state !== undefined) {
    params.push(q.state);
    where.push(`d.state = $${params.length}`);
  }
  if (q.after !== undefined) {
    params.push(q.after.createdAt, q.after.deliveryId);
    const a = params.length - 1;
    where.push(`(d.created_at < $${a} OR (d.created_at = $${a} AND d.delivery_id < $${a + 1}))`);
  }
  params.push(q.limit + 1);
  const rows = await tx.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM payment_webhook_deliveries d
     JOIN payment_events e ON e.event_id = d.event_id
     ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY d.created_at DESC, d.delivery_id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(deliveryFromRow);
}

/** The delivery with its attempts, oldest attempt first; undefined when there is none. */
export async function findDelivery(
  tx: SqlExecutor,
  deliveryId: string,
): Promise<(DeliveryView & { readonly log: AttemptView[]; inFlight: boolean }) | undefined> {
  const rows = await tx.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM payment_webhook_deliveries d
     JOIN payment_events e ON e.event_id = d.event_id WHERE d.delivery_id = $1`,
    [deliveryId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const attempts = await tx.query<{
    attempt: number | string;
    started_at: string;
    duration_ms: number | string;
    outcome: string;
    status_code: number | string | null;
    error: string | null;
    next_attempt_at: string | null;
  }>(
    `SELECT attempt, started_at, duration_ms, outcome, status_code, error, next_attempt_at
     FROM payment_webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`,
    [deliveryId],
  );
  return {
    ...deliveryFromRow(row),
    inFlight: row.lease_until !== null,
    log: attempts.map((a) => ({
      attempt: Number(a.attempt),
      startedAt: a.started_at,
      durationMs: Number(a.duration_ms),
      outcome: a.outcome as AttemptOutcome,
      statusCode: numberOrNull(a.status_code),
      error: a.error,
      nextAttemptAt: a.next_attempt_at,
    })),
  };
}

/**
 * Makes the delivery due now with a fresh attempt budget (delivered and dead-lettered ones included:
 * receivers de-duplicate on the event id). False when it is in flight (leased) at `now`.
 */
export async function scheduleRedelivery(
  tx: SqlExecutor,
  deliveryId: string,
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const changed = await tx.execute(
    `UPDATE payment_webhook_deliveries SET state = 'PENDING', next_attempt_at = $2,
       budget_start = attempts, lease_token = NULL, lease_until = NULL, updated_at = $2
     WHERE delivery_id = $1 AND (lease_until IS NULL OR lease_until <= $2)`,
    [deliveryId, at],
  );
  return changed === 1;
}
