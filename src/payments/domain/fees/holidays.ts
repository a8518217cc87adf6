// Holiday calendars computed by rule, for any year: the Federal Reserve's (US rails), TARGET closing days
// (TARGET2, SEPA) and England & Wales bank holidays (UK rails). Pure; dates are YYYY-MM-DD strings.

export const HOLIDAY_CALENDARS = ['FEDERAL_RESERVE', 'TARGET', 'ENGLAND_WALES', 'NONE'] as const;
export type HolidayCalendarName = (typeof HOLIDAY_CALENDARS)[number];

function iso(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

function weekday(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** The `n`-th (1-based) `dow` (0 = Sunday) of the month; n = -1 for the last one. */
export function nthWeekday(year: number, month: number, dow: number, n: number): string {
  if (n > 0) {
    const first = weekday(year, month, 1);
    return iso(year, month, 1 + ((dow - first + 7) % 7) + (n - 1) * 7);
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = weekday(year, month, lastDay);
  return iso(year, month, lastDay - ((last - dow + 7) % 7));
}

/** Easter Sunday of the Gregorian calendar (anonymous Gregorian algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return iso(year, month, day);
}

function shift(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86400000).toISOString().slice(0, 10);
}

/**
 * Federal Reserve holidays: fixed-date holidays falling on a Sunday are observed the Monday after; on a
 * Saturday they are not observed at all (the Fed stays open the Friday before).
 */
export function federalReserveHolidays(year: number): string[] {
  const fixed = (month: number, day: number): string[] => {
    const dow = weekday(year, month, day);
    if (dow === 6) return [];
    return [dow === 0 ? iso(year, month, day + 1) : iso(year, month, day)];
  };
  return [
    ...fixed(1, 1), // New Year's Day
    nthWeekday(year, 1, 1, 3), // Martin Luther King Jr. Day
    nthWeekday(year, 2, 1, 3), // Washington's Birthday (Presidents Day)
    nthWeekday(year, 5, 1, -1), // Memorial Day
    ...(year >= 2022 ? fixed(6, 19) : []), // Juneteenth (a Fed holiday since 2022)
    ...fixed(7, 4), // Independence Day
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 10, 1, 2), // Columbus Day
    ...fixed(11, 11), // Veterans Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving Day
    ...fixed(12, 25), // Christmas Day
  ].sort();
}

/** TARGET closing days: New Year's Day, Good Friday, Easter Monday, 1 May, 25 and 26 December. */
export function targetHolidays(year: number): string[] {
  const easter = easterSunday(year);
  return [
    iso(year, 1, 1),
    shift(easter, -2),
    shift(easter, 1),
    iso(year, 5, 1),
    iso(year, 12, 25),
    iso(year, 12, 26),
  ].sort();
}

/**
 * England & Wales bank holidays by rule: New Year's Day, Good Friday, Easter Monday, early May (first
 * Monday), spring (last Monday of May), summer (last Monday of August), Christmas and Boxing Day; a
 * fixed-date holiday on a weekend moves to the next weekday not already a holiday. One-off changes
 * (coronations, moved May holidays) are configured as extra dates.
 */
export function englandWalesHolidays(year: number): string[] {
  const easter = easterSunday(year);
  const taken = new Set<string>();
  const substitute = (date: string): string => {
    let d = date;
    for (;;) {
      const dow = new Date(`${d}T00:00:00Z`).getUTCDay();
      if (dow !== 0 && dow !== 6 && !taken.has(d)) break;
      d = shift(d, 1);
    }
    taken.add(d);
    return d;
  };
  const newYear = substitute(iso(year, 1, 1));
  const christmas = substitute(iso(year, 12, 25));
  const boxing = substitute(iso(year, 12, 26));
  return [
    newYear,
    shift(easter, -2),
    shift(easter, 1),
    nthWeekday(year, 5, 1, 1),
    nthWeekday(year, 5, 1, -1),
    nthWeekday(year, 8, 1, -1),
    christmas,
    boxing,
  ].sort();
}

/** The closing days of a named calendar in the given years. */
export function holidaysOf(name: HolidayCalendarName, years: readonly number[]): string[] {
  const rule =
    name === 'FEDERAL_RESERVE'
      ? federalReserveHolidays
      : name === 'TARGET'
        ? targetHolidays
        : name === 'ENGLAND_WALES'
          ? englandWalesHolidays
          : () => [];
  return years.flatMap((y) => rule(y));
}
