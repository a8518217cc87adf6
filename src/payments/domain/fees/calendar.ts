// Business days in a configured IANA time zone: weekends, holiday lists, and conversion between an
// instant and the local date / clock time (DST-safe through Intl: src/shared/time-zone.ts).
import { zonedDateTime, zoneOffsetMs } from '../../../shared/time-zone.js';

export interface BusinessCalendar {
  readonly timeZone: string;
  readonly weekendDays: readonly number[];
  readonly holidays: ReadonlySet<string>;
}

export interface LocalTime {
  /** YYYY-MM-DD in the calendar's zone. */
  readonly date: string;
  /** Minutes after local midnight. */
  readonly minutes: number;
}

/** Offset of the zone from UTC at `instant`, in minutes (east positive). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  return Math.round(zoneOffsetMs(instant.getTime(), timeZone) / 60000);
}

export function localTime(instant: Date, timeZone: string): LocalTime {
  const p = zonedDateTime(instant.getTime(), timeZone);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return {
    date: `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`,
    minutes: p.hour * 60 + p.minute,
  };
}

/** The instant at local `date` `hh:mm` in the zone. */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  const guess = Date.parse(`${date}T00:00:00Z`) + minutes * 60000;
  let instant = new Date(guess - offsetMinutes(new Date(guess), timeZone) * 60000);
  instant = new Date(guess - offsetMinutes(instant, timeZone) * 60000);
  return instant;
}

/** RFC 3339 with the zone's offset, e.g. 2026-11-23T16:00:00+01:00. */
export function formatZoned(instant: Date, timeZone: string): string {
  const offset = offsetMinutes(instant, timeZone);
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offset * 60000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local.toISOString().slice(0, 19)}${sign}${hh}:${mm}`;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

export function isBusinessDay(date: string, calendar: BusinessCalendar): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return !calendar.weekendDays.includes(weekday) && !calendar.holidays.has(date);
}

/** `date` itself when it is a business day, else the next one. */
export function onOrAfterBusinessDay(date: string, calendar: BusinessCalendar): string {
  let d = date;
  for (let i = 0; i < 370 && !isBusinessDay(d, calendar); i += 1) d = addDays(d, 1);
  return d;
}

export function addBusinessDays(date: string, count: number, calendar: BusinessCalendar): string {
  let d = date;
  for (let n = 0; n < count; n += 1) d = onOrAfterBusinessDay(addDays(d, 1), calendar);
  return d;
}

export function parseClock(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  return Number(h) * 60 + Number(m);
}
