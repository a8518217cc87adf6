// The execution engine's executor: plans over the payments that can still move (engine/plan.ts), then
// runs each due transition in its own transaction: claim the payment (PostgreSQL: FOR UPDATE SKIP
// LOCKED, so two replicas never work on one payment at once; SQLite: one writer), plan it again on the
// fresh row (another replica may have moved it meanwhile), post its journals and record its status
// change, all committed together. A crash before the commit leaves nothing; after it, the payment's
// next action is another one. So each transition happens exactly once (docs/decisions.md, D-261).
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { RateTable } from '../domain/fees/fx.js';
import type { FeesSettings } from '../domain/fees/quote.js';
import type { PaymentLeg } from '../domain/ledger.js';
import { minorUnit } from '../domain/currencies.js';
import { prepareRecord, instructedAmountOf } from '../domain/record-conversion.js';
import { occurrenceAt, remainingInstances } from '../domain/schedule.js';
import {
  claimPayment,
  insertPayment,
  linkInstance,
  paymentsInStatus,
  updatePaymentIfVersion,
  type StoredPayment,
} from '../storage/payments-repo.js';
import { newPaymentId, newUetr } from '../usecases/ids.js';
import { isoStatusOf } from '../domain/iso-status.js';
import { REJECT_REASONS } from './iso-status.js';
import { dueActions, nextAction, type Action, type ActionKind } from './plan.js';
import { applyTransition, planDebit, type TransitionRequest } from './transition.js';
import { inTransition } from '../tracing.js';

export const ENGINE_ACTOR = 'engine';

export interface EngineSettings {
  readonly db: Database;
  readonly fees: FeesSettings;
  /** The service's exchange rates (for debits in another currency than the account's). */
  readonly rates: () => Promise<RateTable | undefined>;
  /** Transitions claimed per round. */
  readonly batchSize: number;
}

/** One thing the engine did. */
export interface EngineStep {
  readonly paymentId: string;
  readonly action: ActionKind;
  readonly from: string;
  readonly to: string;
  readonly at: string;
  readonly isoStatus?: string;
  readonly isoReason?: string;
  readonly description?: string;
  /** INSTANCE: the instance produced (a new payment) and its number (1 = first). */
  readonly instanceId?: string;
  readonly instance?: number;
}

export interface EngineReport {
  readonly until: string;
  readonly steps: readonly EngineStep[];
  /** Due transitions another replica had claimed (it does them). */
  readonly skipped: number;
  readonly failures: readonly { paymentId: string; message: string }[];
}

/** The statuses a payment can still move from (the engine's candidates; its lag metric reads them too). */
export const ACTIVE = ['INITIATED', 'SCHEDULED', 'PENDING', 'CONFIRMED'] as const;
/** A run stops after this many rounds even when transitions keep becoming due (open-ended orders). */
const MAX_ROUNDS = 100_000;

/** Runs every transition due at `until` (at or before it), round after round, until none is left. */
export async function runEngine(settings: EngineSettings, until: Date): Promise<EngineReport> {
  const steps: EngineStep[] = [];
  const failures: { paymentId: string; message: string }[] = [];
  let skipped = 0;
  const rates = await settings.rates();
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const candidates = await paymentsInStatus(settings.db, ACTIVE);
    const due = dueActions(candidates, until, settings.fees).slice(0, settings.batchSize);
    let done = 0;
    for (const action of due) {
      try {
        const result = await inTransition(action.kind, () =>
          settings.db.transaction((tx) => runAction(tx, settings.fees, rates, action, until)),
        );
        if (result.length === 0) skipped += 1;
        else done += 1;
        steps.push(...result);
      } catch (error) {
        failures.push({
          paymentId: action.paymentId,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    if (done === 0) break;
  }
  return { until: until.toISOString(), steps, skipped, failures };
}

/** Claims the payment, checks the action is still its next one and due, and does it. */
async function runAction(
  tx: SqlExecutor,
  fees: FeesSettings,
  rates: RateTable | undefined,
  planned: Action,
  until: Date,
): Promise<EngineStep[]> {
  const claimed = await claimPayment(tx, planned.paymentId);
  if (!claimed) return [];
  const first = nextAction(claimed, fees);
  if (!first || first.kind !== planned.kind || first.at.getTime() > until.getTime()) return [];
  // What is due next for the same payment follows in the same transaction (a payment that settles the
  // day it executes is debited and settled in one commit); at most the three steps of a payment.
  const steps: EngineStep[] = [];
  let payment: StoredPayment | undefined = claimed;
  let action: Action | undefined = first;
  let leg: PaymentLeg | undefined;
  for (let n = 0; n < 3 && payment && action && action.at.getTime() <= until.getTime(); n += 1) {
    // Recorded at the moment it was due (never before the payment's last change).
    const at = new Date(Math.max(action.at.getTime(), Date.parse(payment.updatedAt))).toISOString();
    const done = await runStep(tx, payment, rates, action, at, leg);
    steps.push(...done.steps);
    payment = done.payment;
    leg = done.leg;
    action = payment ? nextAction(payment, fees) : undefined;
  }
  return steps;
}

async function runStep(
  tx: SqlExecutor,
  payment: StoredPayment,
  rates: RateTable | undefined,
  action: Action,
  at: string,
  leg: PaymentLeg | undefined,
): Promise<{ steps: EngineStep[]; payment?: StoredPayment | undefined; leg?: PaymentLeg }> {
  switch (action.kind) {
    case 'EXECUTE':
      return execute(tx, payment, rates, at);
    case 'SETTLE':
      // The leg debited earlier in this transaction, when it was (else read back from the journals).
      return move(tx, payment, 'SETTLE', { to: 'COMPLETED', at, reason: null, leg });
    case 'INSTANCE':
      // The instance is a payment of its own: it is claimed on its own.
      return { steps: await produceInstance(tx, payment, action, at) };
    case 'FINISH':
      return move(tx, payment, 'FINISH', { to: 'COMPLETED', at, reason: 'SCHEDULE_COMPLETED' });
  }
}

async function move(
  tx: SqlExecutor,
  payment: StoredPayment,
  action: ActionKind,
  change: Omit<TransitionRequest, 'actor'>,
): Promise<{ steps: EngineStep[]; payment: StoredPayment }> {
  const updated = await applyTransition(tx, payment, { ...change, actor: ENGINE_ACTOR });
  if (!updated) throw new Error(`payment ${payment.id} changed while claimed`);
  const isoStatus = isoStatusOf(change.to);
  const step: EngineStep = {
    paymentId: payment.id,
    action,
    from: payment.status,
    to: updated.status,
    at: change.at,
    isoStatus,
    ...(change.isoReason !== undefined ? { isoReason: change.isoReason } : {}),
    ...(change.description !== undefined ? { description: change.description } : {}),
  };
  return { steps: [step], payment: updated };
}

/**
 * Debits and submits the payment (PENDING, ACSP), or rejects it (FAILED, RJCT) when the payer account
 * is unknown or closed (AC01, AC04), the payee account here is closed (AC04), the amount cannot be
 * converted (AM03) or the available balance in the account's currency does not cover it (AM04).
 */
async function execute(
  tx: SqlExecutor,
  payment: StoredPayment,
  rates: RateTable | undefined,
  at: string,
): Promise<{ steps: EngineStep[]; payment: StoredPayment; leg?: PaymentLeg }> {
  const plan = await planDebit(tx, payment, rates);
  if (!plan.ok) {
    return move(tx, payment, 'EXECUTE', {
      to: 'FAILED',
      at,
      reason: plan.reason,
      isoReason: plan.reason,
      description: `${REJECT_REASONS[plan.reason]}: ${plan.message}`.slice(0, 140),
    });
  }
  if (plan.leg.amountMinor > plan.availableMinor) {
    const digits = minorUnit(plan.leg.currency) ?? 2;
    const show = (m: bigint) => `${plan.leg.currency} ${formatMinor(m, digits)}`;
    return move(tx, payment, 'EXECUTE', {
      to: 'FAILED',
      at,
      reason: 'AM04',
      isoReason: 'AM04',
      description: `insufficient funds: ${show(plan.leg.amountMinor)} exceeds the available ${show(plan.availableMinor)} on ${plan.leg.payerAccountId}`,
    });
  }
  const moved = await move(tx, payment, 'EXECUTE', {
    to: 'PENDING',
    at,
    reason: null,
    leg: plan.leg,
  });
  return { ...moved, leg: plan.leg };
}

function formatMinor(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${body}` : body;
}

/**
 * Produces the standing order's next instance: a payment of its own (INITIATED, the order's content
 * without the schedule, requested for the instance's execution instant), linked to the order; the
 * order counts it (remainingInstances, nextExecutionDate follow) and completes after its last one
 * (docs/decisions.md, D-262).
 */
async function produceInstance(
  tx: SqlExecutor,
  parent: StoredPayment,
  action: Action,
  at: string,
): Promise<EngineStep[]> {
  const n = action.instance ?? parent.instancesConsumed;
  const executeAt = (action.executeAt ?? new Date(at)).toISOString();
  const instruction = { ...parent.record.paymentInstruction };
  delete instruction.schedule;
  const id = newPaymentId(new Date(executeAt));
  const record = prepareRecord(
    {
      ...parent.record,
      paymentInstruction: {
        ...instruction,
        paymentDates: { ...instruction.paymentDates, requestedExecutionDate: executeAt },
      },
    },
    {
      identification: id,
      uetr: newUetr(),
      usedMechanism: parent.record.paymentInstructionReference?.usedMechanism,
    },
  );
  const amount = instructedAmountOf(record);
  await insertPayment(tx, {
    id,
    owner: parent.owner,
    status: 'INITIATED',
    record,
    instructedAmount: amount.amount,
    instructedCurrency: amount.currency,
    at,
  });
  await linkInstance(tx, id, parent.id, n);
  const before = remainingInstances(parent.record, parent.instancesConsumed);
  const after = remainingInstances(parent.record, n + 1);
  const counted = await updatePaymentIfVersion(tx, parent, parent.version, {
    instancesConsumed: n + 1,
    at,
    history: {
      kind: 'UPDATED',
      actor: ENGINE_ACTOR,
      reason: 'INSTANCE_PRODUCED',
      description: `instance ${n + 1} of the schedule produced: payment ${id}, executing ${executeAt}`,
      changes: [
        {
          pointer: '/paymentInstructionReference/remainingInstances',
          before: before === undefined ? null : String(before),
          after: after === undefined ? null : String(after),
        },
      ],
    },
  });
  if (!counted) throw new Error(`standing order ${parent.id} changed while claimed`);
  const steps: EngineStep[] = [
    {
      paymentId: parent.id,
      action: 'INSTANCE',
      from: parent.status,
      to: parent.status,
      at,
      instanceId: id,
      instance: n + 1,
    },
  ];
  if (occurrenceAt(parent.record, n + 1) === undefined) {
    const done = await move(tx, counted, 'FINISH', {
      to: 'COMPLETED',
      at,
      reason: 'SCHEDULE_COMPLETED',
    });
    steps.push(...done.steps);
  }
  return steps;
}
