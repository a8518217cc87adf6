// Calendar windows of money budgets: the day and the month that contain an instant, in a time zone
// (gateway.governance.budgets.timeZone). Pure: Intl supplies the zone's rules (src/shared/time-zone.ts).
import { zonedDateTime, zoneOffsetMs } from '../../../shared/time-zone.js';

export type BudgetPeriod = 'day' | 'month';

/** One calendar window: [startMs, endMs) as UTC instants, and its name within the period. */
export interface CalendarWindow {
  readonly period: BudgetPeriod;
  /** `2026-11-26` for a day, `2026-11` for a month (local to the time zone). */
  readonly id: string;
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * The UTC instant at which local date year-month-day begins (local midnight). Two estimates cover an
 * offset change near midnight; the earlier one that falls on the date wins. Where a zone skips
 * midnight (a DST change at 00:00), that is the first local instant after the gap.
 */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  const a = wall - zoneOffsetMs(wall, timeZone);
  const b = wall - zoneOffsetMs(a, timeZone);
  const onDate = [a, b].filter((t) => {
    const l = zonedDateTime(t, timeZone);
    return l.year === year && l.month === month && l.day === day;
  });
  return onDate.length > 0 ? Math.min(...onDate) : Math.max(a, b);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The calendar window of `period` containing instant `ms` in `timeZone`. */
export function windowAt(ms: number, period: BudgetPeriod, timeZone: string): CalendarWindow {
  const l = zonedDateTime(ms, timeZone);
  if (period === 'day') {
    const next = new Date(Date.UTC(l.year, l.month - 1, l.day + 1));
    return {
      period,
      id: `${pad(l.year, 4)}-${pad(l.month)}-${pad(l.day)}`,
      startMs: startOfLocalDay(l.year, l.month, l.day, timeZone),
      endMs: startOfLocalDay(
        next.getUTCFullYear(),
        next.getUTCMonth() + 1,
        next.getUTCDate(),
        timeZone,
      ),
    };
  }
  const next = new Date(Date.UTC(l.year, l.month, 1));
  return {
    period,
    id: `${pad(l.year, 4)}-${pad(l.month)}`,
    startMs: startOfLocalDay(l.year, l.month, 1, timeZone),
    endMs: startOfLocalDay(next.getUTCFullYear(), next.getUTCMonth() + 1, 1, timeZone),
  };
}
