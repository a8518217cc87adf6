/** The public prefix of toolgate subscription keys; kept in masks so the kind of secret stays visible. */
export const SUBSCRIPTION_KEY_PREFIX = 'tgk_';

/**
 * Log-safe reference to a secret: "…" plus at most the last 4 characters (`tgk_…1234` for subscription
 * keys). Shorter values reveal less — 2 characters from 12, none below — so a mask never discloses a
 * meaningful part of a short secret.
 */
export function maskSecret(value: string | undefined | null): string {
  if (typeof value !== 'string' || value.length === 0) return '…';
  const prefix = value.startsWith(SUBSCRIPTION_KEY_PREFIX) ? SUBSCRIPTION_KEY_PREFIX : '';
  const rest = value.slice(prefix.length);
  const shown = rest.length >= 16 ? 4 : rest.length >= 12 ? 2 : 0;
  return `${prefix}…${shown === 0 ? '' : rest.slice(-shown)}`;
}

/** Masks the password of a connection URL (postgres://user:pass@host/db → postgres://user:…@host/db). */
export function maskUrlPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '…';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@\s]*):[^@\s]*@/g, '//$1:…@');
  }
}
