// Rolling a requested execution date that falls on a weekend or closing day of the payment's rail (pure):
// FOLLOWING (the next business day, the default), MODIFIED_FOLLOWING (the next one unless it is in the
// next month, then the previous one) or PRECEDING (the previous one, never before today: then the next).
// The time of day is kept in the rail's zone. Instant rails have no closing days, so nothing rolls.
import {
  addDays,
  isBusinessDay,
  localTime,
  onOrAfterBusinessDay,
  zonedInstant,
  type BusinessCalendar,
} from './fees/calendar.js';
import { channelOfMechanism } from './fees/mechanism.js';
import type { FeesSettings } from './fees/quote.js';
import { railClock, railOf } from './fees/rails.js';
import type { Channel } from './fees/schedule.js';
import type { PaymentOrder } from './payment-order.js';

export type BusinessDayConvention = 'FOLLOWING' | 'MODIFIED_FOLLOWING' | 'PRECEDING';

export interface ExecutionDateAdjustment {
  /** The requested execution date as the client sent it. */
  readonly requested: string;
  /** The date-time the payment executes on, in the rail's zone (RFC 3339 in UTC). */
  readonly executionDate: string;
  readonly rail: string;
  readonly convention: BusinessDayConvention;
  /** Why the requested day is not a business day of the rail. */
  readonly reason: 'WEEKEND' | 'HOLIDAY';
}

function onOrBeforeBusinessDay(date: string, calendar: BusinessCalendar): string {
  let d = date;
  for (let i = 0; i < 370 && !isBusinessDay(d, calendar); i += 1) d = addDays(d, -1);
  return d;
}

/** The adjustment of `requested` on the rail's calendar, or undefined when it is a business day. */
export function rollExecutionDate(
  requested: string,
  clock: { readonly rail: string; readonly calendar: BusinessCalendar },
  convention: BusinessDayConvention,
  now: Date,
): ExecutionDateAdjustment | undefined {
  const at = Date.parse(requested);
  if (Number.isNaN(at)) return undefined;
  const { calendar } = clock;
  const local = localTime(new Date(at), calendar.timeZone);
  if (isBusinessDay(local.date, calendar)) return undefined;
  const following = onOrAfterBusinessDay(local.date, calendar);
  const today = localTime(now, calendar.timeZone).date;
  let day = following;
  if (convention === 'PRECEDING') {
    const preceding = onOrBeforeBusinessDay(local.date, calendar);
    if (preceding >= today) day = preceding;
  } else if (
    convention === 'MODIFIED_FOLLOWING' &&
    following.slice(0, 7) !== local.date.slice(0, 7)
  ) {
    const preceding = onOrBeforeBusinessDay(local.date, calendar);
    if (preceding >= today) day = preceding;
  }
  const weekday = new Date(`${local.date}T00:00:00Z`).getUTCDay();
  return {
    requested,
    // zonedInstant works in minutes: the seconds (and milliseconds) of the request are kept as they were.
    executionDate: new Date(
      zonedInstant(day, local.minutes, calendar.timeZone).getTime() + (at % 60_000),
    ).toISOString(),
    rail: clock.rail,
    convention,
    reason: calendar.weekendDays.includes(weekday) ? 'WEEKEND' : 'HOLIDAY',
  };
}

/**
 * The rail an order runs on and its calendar: the rail its mechanism names (requestedMechanism, else the
 * Used-Mechanism header), else the configured rail of its clearing channel (given, or RTGS for priority
 * HIGH, else the mass-payment channel) and currency; the bank clock when no rail fits.
 */
export function orderRail(
  fees: FeesSettings,
  order: PaymentOrder,
  usedMechanism: string | undefined,
  around: Date,
): {
  readonly rail: string;
  readonly calendar: BusinessCalendar;
  readonly convention: BusinessDayConvention;
} {
  const instruction = order.paymentInstruction;
  const mechanism = instruction?.requestedMechanism ?? usedMechanism;
  const currency =
    instruction?.amount?.transferCurrency ?? instruction?.amount?.instructedCurrency ?? '';
  const channel: Channel =
    (mechanism === undefined ? undefined : channelOfMechanism(mechanism)) ??
    instruction?.clearingChannel ??
    (instruction?.priority === 'HIGH' ? 'RTGS' : 'MPNS');
  const rail = railOf(fees, mechanism, channel, currency);
  const clock = railClock(fees, rail, channel, currency, around);
  return {
    rail: clock.rail,
    calendar: clock.calendar,
    convention: rail === undefined ? 'FOLLOWING' : fees.rails[rail].businessDayConvention,
  };
}
