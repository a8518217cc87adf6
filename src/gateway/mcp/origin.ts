// DNS-rebinding protection: an Origin header that is present must be allowed (configuration list, plus
// loopback origins when enabled).
const LOOPBACK = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

export function originAllowed(
  origin: string | undefined,
  allowed: ReadonlySet<string>,
  allowLoopback: boolean,
): boolean {
  if (origin === undefined) return true;
  const normalised = origin.replace(/\/+$/, '');
  if (allowed.has(normalised.toLowerCase())) return true;
  return allowLoopback && LOOPBACK.test(normalised);
}

/** `Accept` must allow both application/json and text/event-stream (absent header = anything). */
export function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  const types = accept.split(',').map((part) => (part.split(';')[0] ?? '').trim().toLowerCase());
  const has = (type: string, family: string) =>
    types.includes(type) || types.includes(`${family}/*`) || types.includes('*/*');
  return has('application/json', 'application') && has('text/event-stream', 'text');
}
