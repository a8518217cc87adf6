// Which transitions are due at a given instant (pure). A payment executes on its execution date, in its
// rail's time zone: the first business day of the rail's calendar on or after the requested execution
// date (or the acceptance, when later), the next one when it was accepted after that day's cut-off; the
// same clock the fee quote uses (domain/fees). Batch rails (mass payments: SEPA, ACH, Bacs; and book
// transfers, on the bank's end-of-day run) submit at the day's cut-off; real-time rails (RTGS, instant)
// as soon as the execution date has begun and the payment was accepted (decision: Engine due times:
// batch rails at the cut-off, real-time rails from the start of the execution date).
// It settles on its value date (the execution date plus the rail's settlement days, at local midnight)
// and never before it was executed. A standing order or recurring schedule produces instance n at its
// n-th execution instant.
import { extractIBAN, electronicFormatIBAN } from 'ibantools';
import { quoteDates } from '../domain/fees/dates.js';
import { zonedInstant } from '../domain/fees/calendar.js';
import { channelOfMechanism, defaultChannel } from '../domain/fees/mechanism.js';
import type { FeesSettings } from '../domain/fees/quote.js';
import { railClock, railOf } from '../domain/fees/rails.js';
import type { Channel, Scope } from '../domain/fees/schedule.js';
import type { PaymentStatus } from '../domain/lifecycle.js';
import { hasSchedule, type PaymentOrder } from '../domain/payment-order.js';
import { occurrenceAt } from '../domain/schedule.js';

/** What the planner needs of a payment. */
export interface Candidate {
  readonly id: string;
  readonly status: PaymentStatus;
  readonly record: PaymentOrder;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly instancesConsumed: number;
}

export type ActionKind = 'EXECUTE' | 'SETTLE' | 'INSTANCE' | 'FINISH';

export interface Action {
  readonly kind: ActionKind;
  readonly paymentId: string;
  /** When it is due. */
  readonly at: Date;
  /** INSTANCE: the number of the instance to produce (0 = first) and its execution instant. */
  readonly instance?: number;
  readonly executeAt?: Date;
}

export interface ExecutionTimes {
  /** The execution date (YYYY-MM-DD in the rail's zone) and the rail it runs on. */
  readonly executionDate: string;
  readonly rail: string;
  readonly channel: Channel;
  readonly timeZone: string;
  /** When the payment is debited and submitted (batch rails: the execution date's cut-off). */
  readonly dueAt: Date;
  /** When it settles (value date, never before dueAt). */
  readonly settleAt: Date;
}

function bankOf(accountId: string | undefined): { country?: string; bank?: string } {
  if (accountId === undefined) return {};
  const iban = extractIBAN(electronicFormatIBAN(accountId) ?? accountId);
  return iban.valid
    ? { country: iban.countryCode ?? '', bank: `${iban.countryCode}:${iban.bankIdentifier}` }
    : {};
}

/** The execution date, cut-off and settlement of a payment on its rail's clock. */
export function executionTimes(
  order: PaymentOrder,
  acceptedAt: Date,
  fees: FeesSettings,
): ExecutionTimes {
  const instruction = order.paymentInstruction;
  const currency =
    instruction?.amount?.transferCurrency ?? instruction?.amount?.instructedCurrency ?? '';
  const payer = bankOf(order.payerAccountReference?.paymentInstructionAccount?.accountId);
  const payee = bankOf(order.payeeAccountReference?.paymentInstructionAccount?.accountId);
  const scope: Scope =
    payer.country && payee.country && payer.country !== payee.country ? 'CROSS_BORDER' : 'DOMESTIC';
  const mechanism =
    order.paymentInstructionReference?.usedMechanism ?? instruction?.requestedMechanism;
  const channel: Channel =
    (instruction?.clearingChannel as Channel | undefined) ??
    (mechanism ? channelOfMechanism(mechanism) : undefined) ??
    defaultChannel(
      payer.bank !== undefined && payer.bank === payee.bank,
      scope,
      instruction?.priority ?? 'NORM',
    );
  const requestedText = instruction?.paymentDates?.requestedExecutionDate;
  const requested = requestedText ? new Date(requestedText) : acceptedAt;
  const effective =
    Number.isNaN(requested.getTime()) || requested < acceptedAt ? acceptedAt : requested;
  const clock = railClock(
    fees,
    railOf(fees, mechanism, channel, currency),
    channel,
    currency,
    effective,
  );
  const dates = quoteDates({
    requested: effective,
    scope,
    calendar: clock.calendar,
    cutOff: clock.cutOff,
    settlementDays: clock.settlementDays,
    crossBorderExtraDays: fees.crossBorderExtraDays,
  });
  const zone = clock.calendar.timeZone;
  const dayStart = zonedInstant(dates.executionDate, 0, zone);
  const realTime = channel === 'RTGS' || channel === 'RTNS';
  const dueAt = realTime ? (effective > dayStart ? effective : dayStart) : dates.cutOff;
  const valueStart = zonedInstant(dates.valueDate, 0, zone);
  return {
    executionDate: dates.executionDate,
    rail: clock.rail,
    channel,
    timeZone: zone,
    dueAt,
    settleAt: valueStart > dueAt ? valueStart : dueAt,
  };
}

/** The next transition of a payment and when it is due; undefined when it has none. */
export function nextAction(c: Candidate, fees: FeesSettings): Action | undefined {
  const accepted = new Date(c.createdAt);
  if (hasSchedule(c.record)) {
    if (c.status !== 'SCHEDULED') return undefined;
    const at = occurrenceAt(c.record, c.instancesConsumed);
    if (at === undefined) return { kind: 'FINISH', paymentId: c.id, at: new Date(c.updatedAt) };
    // An instance is produced at its execution instant, or at the order's acceptance when later.
    const produceAt = new Date(Math.max(at, accepted.getTime()));
    return {
      kind: 'INSTANCE',
      paymentId: c.id,
      at: produceAt,
      instance: c.instancesConsumed,
      executeAt: new Date(at),
    };
  }
  if (c.status === 'INITIATED' || c.status === 'SCHEDULED')
    return { kind: 'EXECUTE', paymentId: c.id, at: executionTimes(c.record, accepted, fees).dueAt };
  if (c.status === 'PENDING' || c.status === 'CONFIRMED')
    return {
      kind: 'SETTLE',
      paymentId: c.id,
      at: executionTimes(c.record, accepted, fees).settleAt,
    };
  return undefined;
}

/** The transitions due at `until` (at or before it), oldest first (ties by payment id). */
export function dueActions(
  candidates: readonly Candidate[],
  until: Date,
  fees: FeesSettings,
): Action[] {
  const due: Action[] = [];
  for (const c of candidates) {
    const action = nextAction(c, fees);
    if (action && action.at.getTime() <= until.getTime()) due.push(action);
  }
  return due.sort(
    (a, b) => a.at.getTime() - b.at.getTime() || (a.paymentId < b.paymentId ? -1 : 1),
  );
}
