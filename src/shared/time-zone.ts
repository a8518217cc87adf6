// Wall-clock time in an IANA time zone, DST-safe: Intl supplies the zone's rules (the runtime's tzdata).
// Shared by the payment service's business calendars and the gateway's budget windows.

/** The local date and clock time of an instant in a zone (month 1–12). */
export interface ZonedDateTime {
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

/** The local date and time at instant `ms` (epoch milliseconds) in `timeZone`. */
export function zonedDateTime(ms: number, timeZone: string): ZonedDateTime {
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

/** The zone's offset from UTC at instant `ms` (local minus UTC, east positive), in milliseconds. */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const l = zonedDateTime(ms, timeZone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}
