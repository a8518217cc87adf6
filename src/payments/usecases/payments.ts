// The payment operations (parse → rules → storage), independent of HTTP details. Each returns the
// response to send (status + body + headers) so the idempotency layer can store and replay it.
import type { SqlExecutor } from '../../shared/db/types.js';
import { decideCancellation, type CancellationRequest } from '../domain/cancellation.js';
import { PaymentError, type FieldProblem } from '../domain/errors.js';
import { diffRecords } from '../domain/history.js';
import { UPDATABLE } from '../domain/lifecycle.js';
import { hasSchedule, type PaymentOrder } from '../domain/payment-order.js';
import {
  initialStatus,
  instructedAmountOf,
  prepareRecord,
  renderRecord,
  statusAfterUpdate,
} from '../domain/record-conversion.js';
import { checkPaymentRules, type RuleContext } from '../domain/rules.js';
import { remainingInstances, scheduleProgress } from '../domain/schedule.js';
import type { StoredResponse } from '../storage/idempotency.js';
import {
  findPayment,
  insertPayment,
  updatePaymentIfVersion,
  type HistoryEntry,
  type StoredPayment,
} from '../storage/payments-repo.js';
import { payerAccountsOf } from './accounts.js';
import { newPaymentId, newUetr } from './ids.js';

export const etagOf = (version: number): string => `"v${version}"`;

/** The stored payment as the API returns it; a schedule shows its remaining instances and next date. */
export function render(p: StoredPayment, now: Date): PaymentOrder {
  return renderRecord(
    p.record,
    p.status,
    p.reason,
    [],
    scheduleProgress(p.record, p.instancesConsumed, now),
  );
}

/** A history entry as getPaymentHistory returns it (fields without a value are left out). */
export function renderHistoryEntry(e: HistoryEntry): Record<string, unknown> {
  return {
    version: e.version,
    at: e.at,
    kind: e.kind,
    actor: e.actor,
    reason: e.reason,
    ...(e.toStatus !== undefined ? { fromStatus: e.fromStatus ?? null, toStatus: e.toStatus } : {}),
    ...(e.changes !== undefined ? { changes: e.changes } : {}),
    ...(e.changesTruncated ? { changesTruncated: true } : {}),
    ...(e.cancellation !== undefined ? { cancellation: e.cancellation } : {}),
    ...(e.description !== undefined ? { description: e.description } : {}),
  };
}

/** Throws 422 listing every problem (pointer, code, ISO 20022 reason, message) when there are any. */
export function refuseViolations(errors: readonly FieldProblem[]): void {
  if (errors.length > 0) {
    throw new PaymentError(
      'BUSINESS_RULE_VIOLATION',
      `The payment breaks ${errors.length} business rule${errors.length === 1 ? '' : 's'}.`,
      errors,
    );
  }
}

/**
 * validatePayment: the record with status and reason filled in by the rules, and every problem listed in
 * `statusReasons` (the per-field status reasons of a pain.002 report); stores nothing.
 */
export function validateRecord(record: PaymentOrder, context: RuleContext): PaymentOrder {
  const { now } = context;
  const errors = checkPaymentRules(record, context);
  const first = errors[0];
  return first
    ? renderRecord(record, 'FAILED', first.reason, errors)
    : renderRecord(record, initialStatus(record, now), 'ACTC');
}

export interface CreateInput {
  readonly owner: string;
  readonly record: PaymentOrder;
  readonly usedMechanism?: string | undefined;
  readonly basePath: string;
  readonly now: Date;
}

/** The rule context of a signed-in user's request: clock, mechanism and the user's own accounts. */
export async function userRuleContext(
  db: SqlExecutor,
  owner: string,
  request: { now: Date; usedMechanism?: string | undefined; exceptId?: string; lock?: boolean },
): Promise<RuleContext> {
  const { exceptId, lock, ...rest } = request;
  return {
    ...rest,
    payerAccounts: await payerAccountsOf(db, owner, {
      now: request.now,
      ...(exceptId !== undefined ? { exceptId } : {}),
      ...(lock !== undefined ? { lock } : {}),
    }),
  };
}

export async function createPayment(tx: SqlExecutor, input: CreateInput): Promise<StoredResponse> {
  const context = await userRuleContext(tx, input.owner, {
    now: input.now,
    usedMechanism: input.usedMechanism,
    lock: true,
  });
  refuseViolations(checkPaymentRules(input.record, context));
  const id = newPaymentId(input.now);
  const record = prepareRecord(input.record, {
    identification: id,
    uetr: input.record.paymentInstructionReference?.uetr?.toLowerCase() ?? newUetr(),
    usedMechanism: input.usedMechanism,
  });
  const amount = instructedAmountOf(record);
  const stored = await insertPayment(tx, {
    id,
    owner: input.owner,
    status: initialStatus(record, input.now),
    record,
    instructedAmount: amount.amount,
    instructedCurrency: amount.currency,
    at: input.now.toISOString(),
  });
  return {
    statusCode: 201,
    body: render(stored, input.now),
    headers: { ETag: etagOf(stored.version), Location: `${input.basePath}/payments/${id}` },
  };
}

export async function loadOwned(
  tx: SqlExecutor,
  id: string,
  owner: string,
): Promise<StoredPayment> {
  const payment = await findPayment(tx, id, owner);
  if (!payment) throw new PaymentError('PAYMENT_NOT_FOUND', `No payment ${id} was found.`);
  return payment;
}

export interface UpdateInput {
  readonly owner: string;
  readonly id: string;
  readonly record: PaymentOrder;
  readonly ifMatch?: string | undefined;
  readonly usedMechanism?: string | undefined;
  readonly now: Date;
}

export async function updatePayment(tx: SqlExecutor, input: UpdateInput): Promise<StoredResponse> {
  const current = await loadOwned(tx, input.id, input.owner);
  const expected =
    input.ifMatch === undefined ? current.version : matchVersion(input.ifMatch, current.version);
  if (!UPDATABLE.has(current.status)) {
    throw new PaymentError(
      'INVALID_STATE',
      `A payment in status ${current.status} can no longer be changed (only INITIATED, SCHEDULED or SUSPENDED).`,
      undefined,
      { paymentStatus: current.status },
    );
  }
  const reference = input.record.paymentInstructionReference;
  const oldUetr = current.record.paymentInstructionReference?.uetr ?? newUetr();
  const immutable = [
    ['identification', reference?.identification, current.id],
    ['uetr', reference?.uetr?.toLowerCase(), oldUetr],
  ] as const;
  const changed = immutable
    .filter(([, given, stored]) => given !== undefined && given !== stored)
    .map(([field]) => ({
      pointer: `/paymentInstructionReference/${field}`,
      code: 'IMMUTABLE_FIELD',
      message: `${field} cannot be changed`,
    }));
  const context = await userRuleContext(tx, input.owner, {
    now: input.now,
    usedMechanism: input.usedMechanism,
    exceptId: current.id,
    lock: true,
  });
  refuseViolations([...changed, ...checkPaymentRules(input.record, context)]);

  const record = prepareRecord(input.record, {
    identification: current.id,
    uetr: oldUetr,
    usedMechanism: input.usedMechanism ?? current.record.paymentInstructionReference?.usedMechanism,
  });
  const status = statusAfterUpdate(current.status, current.record, record, input.now);
  const amount = instructedAmountOf(record);
  const diff = diffRecords(current.record, record);
  const updated = await updatePaymentIfVersion(tx, current, expected, {
    record,
    status,
    instructedAmount: amount.amount,
    instructedCurrency: amount.currency,
    at: input.now.toISOString(),
    history: {
      kind: 'UPDATED',
      actor: `user:${input.owner}`,
      reason: status !== current.status ? 'UPDATED' : null,
      ...(status !== current.status ? { fromStatus: current.status, toStatus: status } : {}),
      changes: diff.changes,
      ...(diff.truncated ? { changesTruncated: true } : {}),
    },
  });
  if (!updated) throw stale(input.ifMatch !== undefined);
  return {
    statusCode: 200,
    body: render(updated, input.now),
    headers: { ETag: etagOf(updated.version) },
  };
}

export async function cancelPayment(
  tx: SqlExecutor,
  input: { owner: string; id: string; request: CancellationRequest; now: Date },
): Promise<StoredResponse> {
  const current = await loadOwned(tx, input.id, input.owner);
  const decision = decideCancellation(
    {
      status: current.status,
      record: current.record,
      identification: current.id,
      consumed: current.instancesConsumed,
    },
    input.request,
  );
  if (decision.newStatus !== undefined || decision.skipped !== undefined) {
    const cancellationType = input.request.cancellationType ?? 'SINGLE_PAYMENT_INSTANCE';
    const instances =
      decision.skipped !== undefined
        ? decision.skipped - current.instancesConsumed
        : hasSchedule(current.record)
          ? remainingInstances(current.record, current.instancesConsumed)
          : undefined;
    const updated = await updatePaymentIfVersion(tx, current, current.version, {
      at: input.now.toISOString(),
      ...(decision.skipped !== undefined ? { instancesConsumed: decision.skipped } : {}),
      ...(decision.newStatus !== undefined
        ? { status: decision.newStatus, reason: decision.result.reasonCode }
        : {}),
      history: {
        kind: 'CANCELLED',
        actor: `user:${input.owner}`,
        reason: decision.result.reasonCode,
        ...(decision.newStatus !== undefined
          ? { fromStatus: current.status, toStatus: decision.newStatus }
          : {}),
        cancellation: { cancellationType, ...(instances !== undefined ? { instances } : {}) },
        description: decision.result.reasonDescription,
      },
    });
    if (!updated) throw stale(false);
  }
  return { statusCode: 200, body: decision.result };
}

function matchVersion(ifMatch: string, version: number): number {
  const tags = ifMatch.split(',').map((t) => t.trim());
  if (tags.includes('*') || tags.includes(etagOf(version))) return version;
  throw new PaymentError(
    'PRECONDITION_FAILED',
    `The payment has changed (current ETag ${etagOf(version)}); get it again and retry.`,
    undefined,
    { currentETag: etagOf(version) },
  );
}

function stale(withIfMatch: boolean): PaymentError {
  return withIfMatch
    ? new PaymentError(
        'PRECONDITION_FAILED',
        'The payment was changed by another request meanwhile.',
      )
    : new PaymentError(
        'CONCURRENT_UPDATE',
        'The payment was changed by another request meanwhile; retry.',
      );
}
