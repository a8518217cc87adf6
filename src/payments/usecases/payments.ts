// The payment orders' write operations (create, update, cancel: rules → storage), independent of HTTP
// details. Each runs in one transaction, at most once per idempotency key, and returns the response to send
// (status + body + headers), which the idempotency store keeps for replays.
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import { decideCancellation, type CancellationRequest } from '../domain/cancellation.js';
import { PaymentError, type FieldProblem } from '../domain/errors.js';
import { foreignHoldsMinor } from '../domain/foreign-holds.js';
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
import type {
  IdempotencyRequest,
  IdempotencyStore,
  IdempotentOutcome,
  StoredResponse,
} from '../storage/idempotency.js';
import {
  findPayment,
  insertPayment,
  paymentsOf,
  updatePaymentIfVersion,
  type StoredPayment,
} from '../storage/payments-repo.js';
import { postLedgerEffect } from '../engine/transition.js';
import { paymentEntries } from '../storage/ledger-repo.js';
import type { DirectoryModes } from '../../config/payments-directory.js';
import type { RuleViolation } from '../domain/rules.js';
import { payerAccountsOf } from './accounts.js';
import {
  ratesOf,
  refuseDuplicate,
  withBusinessDay,
  type AcceptanceSettings,
} from './acceptance.js';
import { applyDirectoryModes, loadDirectoryFacts } from './directory-facts.js';
import { newPaymentId, newUetr } from './ids.js';

/** Where the payment operations keep their state, and what acceptance needs from the configuration. */
export interface PaymentStores {
  readonly db: Database;
  readonly idempotency: IdempotencyStore;
  /** Rates, rail calendars and the duplicate window (absent: none of those checks). */
  readonly acceptance?: AcceptanceSettings | undefined;
  /** Refuse, warn or off per bank-directory check at acceptance (default: each check's default). */
  readonly directoryModes?: DirectoryModes | undefined;
}

/** What every write takes besides its own input: the idempotency claim (none without a key), the clock. */
interface WriteRequest {
  readonly claim?: IdempotencyRequest | undefined;
  readonly now: Date;
}

export const etagOf = (version: number): string => `"v${version}"`;

/** The stored payment as the API returns it; a schedule shows its remaining instances and next date. */
export function render(p: StoredPayment, now: Date): PaymentOrder {
  const order = renderRecord(
    p.record,
    p.status,
    p.reason,
    [],
    scheduleProgress(p.record, p.instancesConsumed, now),
  );
  // An instance of a standing order names the order that produced it.
  return p.parentId === undefined
    ? order
    : {
        ...order,
        paymentInstructionReference: {
          ...order.paymentInstructionReference,
          standingOrderIdentification: p.parentId,
        },
      };
}

/**
 * The order as answered with the directory checks set to warn listed in its statusReasons (issue 26,
 * item 2; not stored: validatePayment answers the same at any time).
 */
export function withWarnings(
  order: PaymentOrder,
  warnings: readonly RuleViolation[],
): PaymentOrder {
  if (warnings.length === 0) return order;
  return {
    ...order,
    paymentInstructionReference: {
      ...order.paymentInstructionReference,
      statusReasons: warnings.map(({ pointer, code, reason, message }) => ({
        pointer,
        code,
        reason,
        message,
      })),
    },
  };
}

/** Throws 422 listing every problem (pointer, code, ISO 20022 reason, message) when there are any. */
function refuseViolations(errors: readonly FieldProblem[]): void {
  if (errors.length > 0) {
    throw new PaymentError(
      'BUSINESS_RULE_VIOLATION',
      `The payment breaks ${errors.length} business rule${errors.length === 1 ? '' : 's'}.`,
      errors,
    );
  }
}

export interface CreateInput extends WriteRequest {
  readonly owner: string;
  readonly order: PaymentOrder;
  readonly usedMechanism?: string | undefined;
  readonly basePath: string;
  /** The client confirmed a possible duplicate (header Confirm-Duplicate: true). */
  readonly confirmedDuplicate?: boolean;
}

/**
 * The rule context of a signed-in user's request: clock, mechanism, the user's own accounts and, given
 * the order, what the bank directory says about its identifiers.
 */
export async function userRuleContext(
  db: SqlExecutor,
  owner: string,
  request: {
    now: Date;
    usedMechanism?: string | undefined;
    exceptId?: string;
    lock?: boolean;
    acceptance?: AcceptanceSettings | undefined;
    order?: PaymentOrder;
  },
): Promise<RuleContext> {
  const { exceptId, lock, acceptance, order, ...rest } = request;
  const rates = await ratesOf(acceptance);
  const accounts = await payerAccountsOf(db, owner, {
    now: request.now,
    ...(exceptId !== undefined ? { exceptId } : {}),
    ...(lock !== undefined ? { lock } : {}),
  });
  const directory = order !== undefined ? { directory: await loadDirectoryFacts(db, order) } : {};
  if (rates === undefined) return { ...rest, ...directory, payerAccounts: accounts };
  // Accepted payments in other currencies hold their converted cost until the engine debits them.
  const pending = (await paymentsOf(db, owner)).filter((p) => p.id !== exceptId);
  return {
    ...rest,
    ...directory,
    rates,
    payerAccounts: accounts.map((account) => ({
      ...account,
      availableMinor: account.availableMinor - foreignHoldsMinor(account, pending, rates.table),
    })),
  };
}

/** createPayment: the order, checked against every rule and the user's own accounts, stored. */
export function createPayment(
  stores: PaymentStores,
  input: CreateInput,
): Promise<IdempotentOutcome> {
  return stores.idempotency.run(input.claim, (tx) =>
    create(tx, input, stores.directoryModes, stores.acceptance),
  );
}

async function create(
  tx: SqlExecutor,
  input: CreateInput,
  modes: DirectoryModes | undefined,
  acceptance: AcceptanceSettings | undefined,
): Promise<StoredResponse> {
  const context = await userRuleContext(tx, input.owner, {
    now: input.now,
    usedMechanism: input.usedMechanism,
    lock: true,
    order: input.order,
    acceptance,
  });
  const { refusals, warnings } = applyDirectoryModes(
    checkPaymentRules(input.order, context),
    modes,
  );
  refuseViolations(refusals);
  // Compared as it will be stored (the execution date rolled onto a business day), like the earlier ones.
  const { order } = withBusinessDay(acceptance, input.order, input.usedMechanism, input.now);
  await refuseDuplicate(tx, acceptance, {
    owner: input.owner,
    order,
    now: input.now,
    confirmed: input.confirmedDuplicate === true,
    keyed: input.claim !== undefined,
  });
  const id = newPaymentId(input.now);
  const record = prepareRecord(order, {
    identification: id,
    uetr: order.paymentInstructionReference?.uetr?.toLowerCase() ?? newUetr(),
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
    body: withWarnings(render(stored, input.now), warnings),
    headers: { ETag: etagOf(stored.version), Location: `${input.basePath}/payments/${id}` },
  };
}

/** The caller's own payment (another user's looks like none: 404). */
export async function loadOwned(
  tx: SqlExecutor,
  id: string,
  owner: string,
): Promise<StoredPayment> {
  const payment = await findPayment(tx, id, owner);
  if (!payment) throw new PaymentError('PAYMENT_NOT_FOUND', `No payment ${id} was found.`);
  return payment;
}

export interface UpdateInput extends WriteRequest {
  readonly owner: string;
  readonly id: string;
  readonly order: PaymentOrder;
  readonly ifMatch?: string | undefined;
  readonly usedMechanism?: string | undefined;
}

/**
 * updatePayment: the whole order replaced (INITIATED, SCHEDULED or SUSPENDED only), checked like a new
 * one (its payer account too) but without counting itself against the balance.
 */
export function updatePayment(
  stores: PaymentStores,
  input: UpdateInput,
): Promise<IdempotentOutcome> {
  return stores.idempotency.run(input.claim, (tx) =>
    update(tx, input, stores.directoryModes, stores.acceptance),
  );
}

async function update(
  tx: SqlExecutor,
  input: UpdateInput,
  modes: DirectoryModes | undefined,
  acceptance: AcceptanceSettings | undefined,
): Promise<StoredResponse> {
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
  // A SUSPENDED payment the clearing side held after its debit is in clearing: its amount and payee are
  // what was debited and will settle, so its owner can only cancel it (the reversal gives the money back).
  if ((await paymentEntries(tx, current.id)).some((e) => e.kind === 'DEBIT')) {
    throw new PaymentError(
      'INVALID_STATE',
      `Payment ${current.id} was debited before it was suspended and can no longer be changed; cancel it instead.`,
      undefined,
      { paymentStatus: current.status },
    );
  }
  const reference = input.order.paymentInstructionReference;
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
    order: input.order,
    acceptance,
  });
  const { refusals, warnings } = applyDirectoryModes(
    checkPaymentRules(input.order, context),
    modes,
  );
  refuseViolations([...changed, ...refusals]);

  const { order } = withBusinessDay(acceptance, input.order, input.usedMechanism, input.now);
  const record = prepareRecord(order, {
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
    body: withWarnings(render(updated, input.now), warnings),
    headers: { ETag: etagOf(updated.version) },
  };
}

export interface CancelInput extends WriteRequest {
  readonly owner: string;
  readonly id: string;
  readonly request: CancellationRequest;
}

/** cancelPayment: the payment, instances of its schedule or the whole schedule cancelled, or refused. */
export function cancelPayment(
  stores: PaymentStores,
  input: CancelInput,
): Promise<IdempotentOutcome> {
  return stores.idempotency.run(input.claim, (tx) => cancel(tx, input));
}

async function cancel(tx: SqlExecutor, input: CancelInput): Promise<StoredResponse> {
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
    // A SUSPENDED payment may have been debited already: cancelling it gives the payer the amount back.
    if (decision.newStatus !== undefined)
      await postLedgerEffect(tx, current, { to: decision.newStatus, at: input.now.toISOString() });
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
