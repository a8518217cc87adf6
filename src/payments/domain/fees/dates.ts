// The dates of a fee quote on its rail's clock: the execution date (first business day on or after the
// request in the rail's zone, the next one when the rail's cut-off has passed), that day's cut-off time,
// and the value date (execution + the rail's settlement days, + extra days cross-border), all on the
// rail's business days and written with the rail zone's offset.
import {
  addBusinessDays,
  formatZoned,
  localTime,
  onOrAfterBusinessDay,
  parseClock,
  zonedInstant,
  type BusinessCalendar,
} from './calendar.js';
import type { Scope } from './schedule.js';

export interface QuoteDatesInput {
  /** When the payer wants it executed (already ≥ now). */
  readonly requested: Date;
  readonly scope: Scope;
  readonly calendar: BusinessCalendar;
  /** Local cut-off, hh:mm in the calendar's zone. */
  readonly cutOff: string;
  readonly settlementDays: number;
  readonly crossBorderExtraDays: number;
  /**
   * An instant rail (SCT Inst, FedNow, Faster Payments): executed and settled within seconds of the
   * request at any time of any day, so no cut-off rolls it to the next day and there is no CUT_OFF_TIME.
   */
  readonly instant?: boolean;
}

export interface FeeDate {
  readonly dateTime: string;
  readonly dateType: 'EXECUTION_DATE' | 'CUT_OFF_TIME' | 'VALUE_DATE';
}

export interface QuoteDates {
  readonly executionDate: string;
  readonly valueDate: string;
  readonly cutOff: Date;
  readonly dates: readonly FeeDate[];
}

export function quoteDates(input: QuoteDatesInput): QuoteDates {
  const { calendar } = input;
  const tz = calendar.timeZone;
  if (input.instant === true) {
    const day = localTime(input.requested, tz).date;
    const at = formatZoned(input.requested, tz);
    return {
      executionDate: day,
      valueDate: day,
      cutOff: input.requested,
      dates: [
        { dateType: 'EXECUTION_DATE', dateTime: at },
        { dateType: 'VALUE_DATE', dateTime: at },
      ],
    };
  }
  const cutOffMinutes = parseClock(input.cutOff);
  const local = localTime(input.requested, tz);
  let execution = onOrAfterBusinessDay(local.date, calendar);
  if (execution === local.date && local.minutes >= cutOffMinutes) {
    execution = addBusinessDays(execution, 1, calendar);
  }
  const settlement =
    input.settlementDays + (input.scope === 'CROSS_BORDER' ? input.crossBorderExtraDays : 0);
  const value = addBusinessDays(execution, settlement, calendar);
  const cutOff = zonedInstant(execution, cutOffMinutes, tz);
  const executionInstant =
    execution === local.date ? input.requested : zonedInstant(execution, 0, tz);
  return {
    executionDate: execution,
    valueDate: value,
    cutOff,
    dates: [
      { dateType: 'EXECUTION_DATE', dateTime: formatZoned(executionInstant, tz) },
      { dateType: 'CUT_OFF_TIME', dateTime: formatZoned(cutOff, tz) },
      { dateType: 'VALUE_DATE', dateTime: formatZoned(zonedInstant(value, 0, tz), tz) },
    ],
  };
}
