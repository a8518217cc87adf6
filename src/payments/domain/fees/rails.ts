// Each payment rail runs on its own clock: time zone, cut-off, settlement days and holiday calendar
// (Fedwire and ACH in New York on Federal Reserve holidays, TARGET2 and SEPA in Frankfurt on TARGET
// closing days, CHAPS/Bacs/Faster Payments in London on England & Wales bank holidays). A quote's rail
// is the one its mechanism names, else the configured rail of its channel and currency; book transfers
// and currencies without a rail use the bank clock (`payments.fees.timeZone`, `cutOffTimes` …).
import type { FeesConfig, RailName } from '../../../config/payments-fees.js';
import { RAIL_NAMES } from '../../../config/payments-fees.js';
import type { BusinessCalendar } from './calendar.js';
import { holidaysOf, type HolidayCalendarName } from './holidays.js';
import type { Channel, DeepReadonly } from './schedule.js';

/** Mechanism names (normalised) that pick one rail. */
const RAIL_OF_MECHANISM: Readonly<Record<string, RailName>> = {
  FEDWIRE: 'FEDWIRE',
  ACH: 'ACH',
  FEDACH: 'ACH',
  NACHA: 'ACH',
  FEDNOW: 'FEDNOW',
  TARGET2: 'TARGET2',
  T2: 'TARGET2',
  SEPA: 'SEPA',
  SCT: 'SEPA',
  STEP2: 'SEPA',
  SEPA_INST: 'SEPA_INST',
  SCT_INST: 'SEPA_INST',
  TIPS: 'SEPA_INST',
  RT1: 'SEPA_INST',
  CHAPS: 'CHAPS',
  BACS: 'BACS',
  FPS: 'FPS',
};

export interface RailClock {
  /** The rail, or BANK for the bank's own clock. */
  readonly rail: RailName | 'BANK';
  readonly calendar: BusinessCalendar;
  /** Local cut-off, hh:mm. */
  readonly cutOff: string;
  readonly settlementDays: number;
  /** An instant rail: no cut-off, settled within seconds at any time. */
  readonly instant: boolean;
}

type Fees = DeepReadonly<FeesConfig>;

function normalise(mechanism: string): string {
  return mechanism
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}

/** The rail of a quote, or undefined for the bank clock. */
export function railOf(
  fees: Fees,
  mechanism: string | undefined,
  channel: Channel,
  currency: string,
): RailName | undefined {
  if (channel === 'BOOK') return undefined;
  const named = mechanism === undefined ? undefined : RAIL_OF_MECHANISM[normalise(mechanism)];
  if (named) return named;
  return RAIL_NAMES.find((name) => {
    const rail = fees.rails[name];
    return rail.channel === channel && rail.currencies.includes(currency);
  });
}

/** Years whose holidays a quote around `instant` may need (value dates run a few days ahead). */
function yearsAround(instant: Date): number[] {
  const y = instant.getUTCFullYear();
  return [y - 1, y, y + 1];
}

/** The clock (zone, calendar, cut-off, settlement) of a quote's rail. */
export function railClock(
  fees: Fees,
  rail: RailName | undefined,
  channel: Channel,
  currency: string,
  around: Date,
): RailClock {
  const years = yearsAround(around);
  const extra = [...fees.holidays, ...(fees.holidaysByCurrency[currency] ?? [])];
  if (rail === undefined) {
    const name: HolidayCalendarName = fees.calendarsByCurrency[currency] ?? 'NONE';
    return {
      rail: 'BANK',
      calendar: {
        timeZone: fees.timeZone,
        weekendDays: fees.weekendDays,
        holidays: new Set([...holidaysOf(name, years), ...extra]),
      },
      cutOff: fees.cutOffTimes[channel],
      settlementDays: fees.settlementDays[channel],
      instant: false,
    };
  }
  const r = fees.rails[rail];
  return {
    rail,
    calendar: {
      timeZone: r.timeZone,
      weekendDays: r.weekendDays,
      holidays: new Set([...holidaysOf(r.calendar, years), ...r.holidays, ...extra]),
    },
    cutOff: r.cutOff,
    settlementDays: r.settlementDays,
    instant: r.instant,
  };
}
