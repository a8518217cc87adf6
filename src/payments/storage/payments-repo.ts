// Payments and their history. Every write goes through a transaction executor handed in by the caller
// (so it commits together with the idempotency key), and every write adds its history entry (one per
// payment version) in that same transaction. Optimistic concurrency: each write is
// `UPDATE … WHERE id = $1 AND version = $2`; 0 rows changed means someone else won. A change that moves
// the status also writes its notification to the outbox (notification-outbox.ts), in the same transaction.
import type { SqlExecutor } from '../../shared/db/types.js';
import type { HistoryEvent, HistoryKind } from '../domain/history.js';
import type { PaymentStatus } from '../domain/lifecycle.js';
import type { PaymentOrder } from '../domain/payment-order.js';
import { enqueueNotification } from './notification-outbox.js';

export interface StoredPayment {
  readonly id: string;
  readonly owner: string;
  readonly status: PaymentStatus;
  readonly reason: string | null;
  readonly version: number;
  readonly record: PaymentOrder;
  readonly instancesConsumed: number;
  /** The standing order this payment is an instance of (set by the execution engine). */
  readonly parentId?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface NewPayment {
  readonly id: string;
  readonly owner: string;
  readonly status: PaymentStatus;
  readonly record: PaymentOrder;
  readonly instructedAmount: string | null;
  readonly instructedCurrency: string | null;
  readonly at: string;
}

export interface StatusChange {
  readonly from: PaymentStatus | null;
  readonly to: PaymentStatus;
  readonly reason: string | null;
  readonly actor: string;
  readonly at: string;
}

interface Row extends Record<string, unknown> {
  id: string;
  owner: string;
  status: string;
  reason: string | null;
  version: number | string;
  record: string;
  instances_consumed: number | string;
  parent_id?: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS =
  'id, owner, status, reason, version, record, instances_consumed, parent_id, created_at, updated_at';

function fromRow(row: Row): StoredPayment {
  return {
    id: row.id,
    owner: row.owner,
    status: row.status as PaymentStatus,
    reason: row.reason,
    version: Number(row.version),
    record: JSON.parse(row.record) as PaymentOrder, // stored by the service after validation
    instancesConsumed: Number(row.instances_consumed),
    ...(typeof row.parent_id === 'string' ? { parentId: row.parent_id } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function insertPayment(tx: SqlExecutor, p: NewPayment): Promise<StoredPayment> {
  await tx.execute(
    `INSERT INTO payments (id, owner, status, reason, version, record, instructed_amount,
       instructed_currency, instances_consumed, created_at, updated_at)
     VALUES ($1, $2, $3, NULL, 1, $4, $5, $6, 0, $7, $7)`,
    [
      p.id,
      p.owner,
      p.status,
      JSON.stringify(p.record),
      p.instructedAmount,
      p.instructedCurrency,
      p.at,
    ],
  );
  const created: HistoryEvent = {
    kind: 'CREATED',
    actor: `user:${p.owner}`,
    reason: null,
    fromStatus: null,
    toStatus: p.status,
  };
  await recordHistory(tx, p.id, 1, p.at, created);
  await enqueueNotification(tx, p, 1, p.at, created);
  return {
    id: p.id,
    owner: p.owner,
    status: p.status,
    reason: null,
    version: 1,
    record: p.record,
    instancesConsumed: 0,
    createdAt: p.at,
    updatedAt: p.at,
  };
}

/** The payment with that id, optionally only when it belongs to `owner`. */
export async function findPayment(
  tx: SqlExecutor,
  id: string,
  owner?: string,
): Promise<StoredPayment | undefined> {
  const rows = await tx.query<Row>(
    owner === undefined
      ? `SELECT ${COLUMNS} FROM payments WHERE id = $1`
      : `SELECT ${COLUMNS} FROM payments WHERE id = $1 AND owner = $2`,
    owner === undefined ? [id] : [id, owner],
  );
  return rows[0] ? fromRow(rows[0]) : undefined;
}

export interface PaymentChange {
  readonly status?: PaymentStatus;
  readonly reason?: string | null;
  readonly record?: PaymentOrder;
  readonly instructedAmount?: string | null;
  readonly instructedCurrency?: string | null;
  readonly instancesConsumed?: number;
  /** The history entry of this change (written with it, as the new version). */
  readonly history: HistoryEvent;
  readonly at: string;
}

/** Applies a change when the stored version is still `expectedVersion`; undefined when it is not. */
export async function updatePaymentIfVersion(
  tx: SqlExecutor,
  current: StoredPayment,
  expectedVersion: number,
  change: PaymentChange,
): Promise<StoredPayment | undefined> {
  const next: StoredPayment = {
    ...current,
    status: change.status ?? current.status,
    reason: change.reason !== undefined ? change.reason : current.reason,
    record: change.record ?? current.record,
    instancesConsumed: change.instancesConsumed ?? current.instancesConsumed,
    version: expectedVersion + 1,
    updatedAt: change.at,
  };
  const amountSql = change.record ? ', instructed_amount = $9, instructed_currency = $10' : '';
  const params = [
    current.id,
    expectedVersion,
    next.status,
    next.reason,
    next.version,
    JSON.stringify(next.record),
    next.instancesConsumed,
    change.at,
  ];
  if (change.record)
    params.push(change.instructedAmount ?? null, change.instructedCurrency ?? null);
  const changed = await tx.execute(
    `UPDATE payments SET status = $3, reason = $4, version = $5, record = $6,
       instances_consumed = $7, updated_at = $8${amountSql}
     WHERE id = $1 AND version = $2`,
    params,
  );
  if (changed !== 1) return undefined;
  await recordHistory(tx, current.id, next.version, change.at, change.history);
  await enqueueNotification(tx, current, next.version, change.at, change.history);
  return next;
}

async function recordHistory(
  tx: SqlExecutor,
  id: string,
  version: number,
  at: string,
  e: HistoryEvent,
): Promise<void> {
  const details = {
    ...(e.changes !== undefined ? { changes: e.changes } : {}),
    ...(e.changesTruncated ? { changesTruncated: true } : {}),
    ...(e.cancellation !== undefined ? { cancellation: e.cancellation } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...(e.isoStatus !== undefined ? { isoStatus: e.isoStatus } : {}),
    ...(e.isoReason !== undefined ? { isoReason: e.isoReason } : {}),
  };
  await tx.execute(
    `INSERT INTO payment_history
       (payment_id, version, changed_at, kind, actor, reason, from_status, to_status, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      version,
      at,
      e.kind,
      e.actor,
      e.reason,
      e.toStatus !== undefined ? (e.fromStatus ?? null) : null,
      e.toStatus ?? null,
      JSON.stringify(details),
    ],
  );
}

/** One stored history entry: the event plus when it happened and the payment version it produced. */
export interface HistoryEntry extends HistoryEvent {
  readonly version: number;
  readonly at: string;
}

interface HistoryRow extends Record<string, unknown> {
  version: number | string;
  changed_at: string;
  kind: string;
  actor: string;
  reason: string | null;
  from_status: string | null;
  to_status: string | null;
  details: string;
}

const HISTORY_COLUMNS = 'version, changed_at, kind, actor, reason, from_status, to_status, details';

function historyFromRow(row: HistoryRow): HistoryEntry {
  const details = JSON.parse(row.details) as Partial<HistoryEvent>;
  return {
    version: Number(row.version),
    at: row.changed_at,
    kind: row.kind as HistoryKind,
    actor: row.actor,
    reason: row.reason,
    ...(row.to_status !== null
      ? {
          fromStatus: row.from_status as PaymentStatus | null,
          toStatus: row.to_status as PaymentStatus,
        }
      : {}),
    ...(details.changes !== undefined ? { changes: details.changes } : {}),
    ...(details.changesTruncated ? { changesTruncated: true } : {}),
    ...(details.cancellation !== undefined ? { cancellation: details.cancellation } : {}),
    ...(details.description !== undefined ? { description: details.description } : {}),
    ...(details.isoStatus !== undefined ? { isoStatus: details.isoStatus } : {}),
    ...(details.isoReason !== undefined ? { isoReason: details.isoReason } : {}),
  };
}

/**
 * A page of the payment's history, newest first: entries older than version `before` (all when
 * undefined); one more than `limit` is fetched to tell whether more exist.
 */
export async function historyPage(
  tx: SqlExecutor,
  id: string,
  q: { limit: number; before?: number },
): Promise<HistoryEntry[]> {
  const rows = await tx.query<HistoryRow>(
    q.before === undefined
      ? `SELECT ${HISTORY_COLUMNS} FROM payment_history WHERE payment_id = $1
         ORDER BY version DESC LIMIT $2`
      : `SELECT ${HISTORY_COLUMNS} FROM payment_history WHERE payment_id = $1 AND version < $3
         ORDER BY version DESC LIMIT $2`,
    q.before === undefined ? [id, q.limit + 1] : [id, q.limit + 1, q.before],
  );
  return rows.map(historyFromRow);
}

/** The payment's status changes, oldest first (the history entries that moved the status). */
export async function statusHistory(tx: SqlExecutor, id: string): Promise<StatusChange[]> {
  const rows = await tx.query<HistoryRow>(
    `SELECT ${HISTORY_COLUMNS} FROM payment_history
     WHERE payment_id = $1 AND to_status IS NOT NULL ORDER BY version`,
    [id],
  );
  return rows.map((r) => ({
    at: r.changed_at,
    from: r.from_status as PaymentStatus | null,
    to: r.to_status as PaymentStatus,
    reason: r.reason,
    actor: r.actor,
  }));
}

export interface PageQuery {
  readonly owner: string;
  readonly status?: PaymentStatus;
  readonly limit: number;
  /** Position after which to continue (createdAt, id of the last item of the previous page). */
  readonly after?: { readonly createdAt: string; readonly id: string };
}

/** The owner's payments, newest first; one more than `limit` is fetched to tell whether more exist. */
export async function listPayments(tx: SqlExecutor, q: PageQuery): Promise<StoredPayment[]> {
  const where = ['owner = $1'];
  const params: (string | number)[] = [q.owner];
  if (q.status) {
    params.push(q.status);
    where.push(`status = $${params.length}`);
  }
  if (q.after) {
    params.push(q.after.createdAt, q.after.id);
    const a = params.length - 1;
    where.push(`(created_at < $${a} OR (created_at = $${a} AND id < $${a + 1}))`);
  }
  params.push(q.limit + 1);
  const rows = await tx.query<Row>(
    `SELECT ${COLUMNS} FROM payments WHERE ${where.join(' AND ')}
     ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(fromRow);
}

/** Every payment of the owner (used by the demo accounts API; small by construction). */
export async function paymentsOf(
  tx: SqlExecutor,
  owner: string,
  max = 1000,
): Promise<StoredPayment[]> {
  const rows = await tx.query<Row>(
    `SELECT ${COLUMNS} FROM payments WHERE owner = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [owner, max],
  );
  return rows.map(fromRow);
}

/** The owner's payments created at or after `since` (ISO), newest first (duplicate detection). */
export async function paymentsCreatedSince(
  tx: SqlExecutor,
  owner: string,
  since: string,
  max = 200,
): Promise<StoredPayment[]> {
  const rows = await tx.query<Row>(
    `SELECT ${COLUMNS} FROM payments WHERE owner = $1 AND created_at >= $2
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [owner, since, max],
  );
  return rows.map(fromRow);
}
/**
 * The payment, claimed for the rest of the transaction: PostgreSQL locks its row and skips it when
 * another transaction holds it (undefined then: another engine replica is on it); SQLite transactions
 * are serialised anyway (BEGIN IMMEDIATE: one writer).
 */
export async function claimPayment(
  tx: SqlExecutor,
  id: string,
): Promise<StoredPayment | undefined> {
  const lock = tx.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const rows = await tx.query<Row>(`SELECT ${COLUMNS} FROM payments WHERE id = $1${lock}`, [id]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** Every payment in one of `statuses` (what the execution engine plans over), by id. */
export async function paymentsInStatus(
  tx: SqlExecutor,
  statuses: readonly PaymentStatus[],
): Promise<StoredPayment[]> {
  const marks = statuses.map((_, i) => `$${i + 1}`).join(', ');
  const rows = await tx.query<Row>(
    `SELECT ${COLUMNS} FROM payments WHERE status IN (${marks}) ORDER BY id`,
    statuses,
  );
  return rows.map(fromRow);
}

/** Links a payment to the standing order (or recurring schedule) it is instance `instance` of. */
export async function linkInstance(
  tx: SqlExecutor,
  id: string,
  parentId: string,
  instance: number,
): Promise<void> {
  await tx.execute('UPDATE payments SET parent_id = $2, instance_no = $3 WHERE id = $1', [
    id,
    parentId,
    instance,
  ]);
}

/** The instances a standing order produced, by instance number. */
export async function instancesOf(
  tx: SqlExecutor,
  parentId: string,
): Promise<{ id: string; instance: number; status: PaymentStatus }[]> {
  const rows = await tx.query<{ id: string; instance_no: number | string; status: string }>(
    'SELECT id, instance_no, status FROM payments WHERE parent_id = $1 ORDER BY instance_no',
    [parentId],
  );
  return rows.map((r) => ({
    id: r.id,
    instance: Number(r.instance_no),
    status: r.status as PaymentStatus,
  }));
}
