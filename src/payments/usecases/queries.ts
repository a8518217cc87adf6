// The payment orders' read operations (get, list, history, validate), independent of HTTP details: each
// answers from storage and the pure domain, and writes no payment.
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { PaymentStatus } from '../domain/lifecycle.js';
import type { PaymentOrder } from '../domain/payment-order.js';
import { initialStatus, renderRecord } from '../domain/record-conversion.js';
import { checkPaymentRules } from '../domain/rules.js';
import type { PaymentHistoryEntry } from '../openapi/payment-order.generated.js';
import {
  historyPage,
  listPayments as pageOfPayments,
  type HistoryEntry,
} from '../storage/payments-repo.js';
import type { AcceptanceSettings } from './acceptance.js';
import type { DirectoryModes } from '../../config/payments-directory.js';
import { applyDirectoryModes, loadDirectoryFacts } from './directory-facts.js';
import { etagOf, loadOwned, render, userRuleContext } from './payments.js';

/** A page of a list, newest first, and where the next page starts (undefined: no more). */
export interface Page<Item, Position> {
  readonly items: readonly Item[];
  readonly next?: Position | undefined;
}

/** getPayment: the caller's payment as the API shows it, with its ETag. */
export async function getPayment(
  db: SqlExecutor,
  request: { owner: string; id: string; now: Date },
): Promise<{ order: PaymentOrder; etag: string }> {
  const payment = await loadOwned(db, request.id, request.owner);
  return { order: render(payment, request.now), etag: etagOf(payment.version) };
}

/** The position of a payment in the list: the next page starts after it. */
export interface ListPosition {
  readonly createdAt: string;
  readonly id: string;
}

/** listPayments: one page of the caller's payments, optionally of one status. */
export async function listPayments(
  db: SqlExecutor,
  request: {
    owner: string;
    limit: number;
    status?: PaymentStatus | undefined;
    after?: ListPosition | undefined;
    now: Date;
  },
): Promise<Page<PaymentOrder, ListPosition>> {
  const { owner, limit, status, after, now } = request;
  const rows = await pageOfPayments(db, {
    owner,
    limit,
    ...(status ? { status } : {}),
    ...(after ? { after } : {}),
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((p) => render(p, now)),
    next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : undefined,
  };
}

/**
 * getPaymentHistory: one page of the caller's payment's history, newest first; the next page holds the
 * versions before the returned position.
 */
export async function paymentHistory(
  db: Database,
  request: { owner: string; id: string; limit: number; before?: number | undefined },
): Promise<Page<PaymentHistoryEntry, number>> {
  const { limit, before } = request;
  const entries = await db.transaction(async (tx) => {
    const payment = await loadOwned(tx, request.id, request.owner);
    return historyPage(tx, payment.id, { limit, ...(before !== undefined ? { before } : {}) });
  });
  const page = entries.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(renderHistoryEntry),
    next: entries.length > limit && last ? last.version : undefined,
  };
}

/** A history entry as getPaymentHistory returns it (fields without a value are left out). */
function renderHistoryEntry(e: HistoryEntry): PaymentHistoryEntry {
  return {
    version: e.version,
    at: e.at,
    kind: e.kind,
    actor: e.actor,
    reason: e.reason,
    ...(e.toStatus !== undefined ? { fromStatus: e.fromStatus ?? null, toStatus: e.toStatus } : {}),
    ...(e.changes !== undefined ? { changes: [...e.changes] } : {}),
    ...(e.changesTruncated ? { changesTruncated: true } : {}),
    ...(e.cancellation !== undefined ? { cancellation: e.cancellation } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
    ...(e.isoStatus !== undefined ? { isoStatus: e.isoStatus } : {}),
    ...(e.isoReason !== undefined ? { isoReason: e.isoReason } : {}),
  };
}

/**
 * validatePayment: the order with status and reason filled in by the rules, and every problem listed in
 * `statusReasons` (the per-field status reasons of a pain.002 report); stores no payment. A signed-in
 * caller's payer account is checked against their own accounts (opened on their first such call) and
 * its funds; an anonymous caller's cannot be, there being no one it could belong to, so an order without
 * problems answers status null (not known) with reason ACTC (technical validation passed), never the
 * INITIATED/SCHEDULED of an order that would be accepted (decision: anonymous validatePayment).
 */
export async function validatePayment(
  db: SqlExecutor,
  request: {
    owner?: string | undefined;
    order: PaymentOrder;
    usedMechanism?: string | undefined;
    now: Date;
    acceptance?: AcceptanceSettings | undefined;
    directoryModes?: DirectoryModes | undefined;
  },
): Promise<PaymentOrder> {
  const { owner, order, usedMechanism, now, acceptance } = request;
  const context =
    owner === undefined
      ? { now, usedMechanism, directory: await loadDirectoryFacts(db, order) }
      : await userRuleContext(db, owner, { now, usedMechanism, order, acceptance });
  // Directory checks set to warn do not fail the order; they are listed after the refusals.
  const { refusals, warnings } = applyDirectoryModes(
    checkPaymentRules(order, context),
    request.directoryModes,
  );
  const first = refusals[0];
  if (first) return renderRecord(order, 'FAILED', first.reason, [...refusals, ...warnings]);
  // Anonymous: no payer account or funds could be checked, so no status (decision above).
  return renderRecord(
    order,
    owner === undefined ? null : initialStatus(order, now),
    'ACTC',
    warnings,
  );
}
