// Calendar windows of money budgets: the day and the month that contain an instant, in a time zone
// (gateway.governance.budgets.timeZone). Pure: Intl supplies the zone's rules (tzdata of the runtime).

export type BudgetPeriod = 'day' | 'month';

/** One calendar window: [startMs, endMs) as UTC instants, and its name within the period. */
export interface CalendarWindow {
  readonly period: BudgetPeriod;
  /** `2026-11-26` for a day, `2026-11` for a month (local to the time zone). */
  readonly id: string;
  readonly startMs: number;
  readonly endMs: number;
}

interface LocalDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function localAt(ms: number, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** The zone's offset from UTC at instant `ms` (local minus UTC), in ms. */
function offsetAt(ms: number, timeZone: string): number {
  const l = localAt(ms, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * The UTC instant at which local date year-month-day begins (local midnight). Two estimates cover an
 * offset change near midnight; the earlier one that falls on the date wins. Where a zone skips
 * midnight (a DST change at 00:00), that is the first local instant after the gap.
 */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  const a = wall - offsetAt(wall, timeZone);
  const b = wall - offsetAt(a, timeZone);
  const onDate = [a, b].filter((t) => {
    const l = localAt(t, timeZone);
    return l.year === year && l.month === month && l.day === day;
  });
  return onDate.length > 0 ? Math.min(...onDate) : Math.max(a, b);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The calendar window of `period` containing instant `ms` in `timeZone`. */
export function windowAt(ms: number, period: BudgetPeriod, timeZone: string): CalendarWindow {
  const l = localAt(ms, timeZone);
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
