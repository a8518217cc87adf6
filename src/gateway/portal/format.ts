// How the portal writes times, intervals and identifiers for people (issue 27, "words"): one helper per
// kind, so every page says "26 Nov 2026, 03:37 UTC" and "user-scoped" the same way. Pure.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (n: number) => String(n).padStart(2, '0');

/** `26 Nov 2026, 03:37 UTC`; an em dash when there is no time; the text as given when it is no time. */
export function formatTime(iso: string | Date | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const d = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()] ?? ''} ${d.getUTCFullYear()}, ${clock(d)} UTC`;
}

/** `03:37` (UTC), for chart axes and tables whose caption names the day. */
export function formatClock(iso: string | Date): string {
  return clock(iso instanceof Date ? iso : new Date(iso));
}

function clock(d: Date): string {
  return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** Milliseconds with one decimal (`56.0 ms`), or an em dash. */
export function formatMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : `${ms.toFixed(1)} ms`;
}

/** The security classes as the docs name them. */
const SECURITY_CLASSES: Readonly<Record<string, string>> = {
  public: 'public',
  user: 'user-scoped',
  optional: 'optional',
};

export function securityClassLabel(securityClass: string): string {
  return SECURITY_CLASSES[securityClass] ?? securityClass;
}

/** A sentence starts with a capital: `suspended` → `Suspended`. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
