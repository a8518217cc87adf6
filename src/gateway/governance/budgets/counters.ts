// Which counters one call's budgets add to: one per limit (rule, scope, period), in the calendar window
// that contains the call, for the call's user or subscription. Pure.
import type { BudgetLimit, GovernedCall } from '../contracts.js';
import { windowAt, type CalendarWindow } from './calendar.js';

/** A counter a reservation adds to, with the limit it may not exceed. */
export interface BudgetCounter {
  /** Store key without the deployment prefix. */
  readonly key: string;
  readonly limit: BudgetLimit;
  readonly window: CalendarWindow;
}

/** Key parts are percent-encoded so that no subject or rule id can collide with another key's parts. */
const part = (s: string) => encodeURIComponent(s);

/**
 * The subject a user budget counts for: issuer and subject when the caller's claims name an issuer (two
 * identity providers may issue the same `sub`), else the subject. An anonymous caller has no user: the
 * anonymous callers of one subscription share one user budget (docs/decisions.md, D-242).
 */
export function userSubject(call: GovernedCall): string {
  const { subject, claims, subscription } = call.caller;
  if (subject === null) return `anonymous@${part(subscription)}`;
  const iss = claims.iss;
  return typeof iss === 'string' && iss.length > 0
    ? `${part(iss)}|${part(subject)}`
    : part(subject);
}

function subjectOf(call: GovernedCall, limit: BudgetLimit): string {
  return limit.scope === 'user' ? `u:${userSubject(call)}` : `s:${part(call.caller.subscription)}`;
}

/**
 * The counters of `limits` for `call`, in the order of the limits. A rule counts only the calls it
 * matches, so each rule has its own counters. Two limits on the same counter (the same rule listed twice)
 * keep the stricter one.
 */
export function countersFor(
  call: GovernedCall,
  limits: readonly BudgetLimit[],
  timeZone: string,
): BudgetCounter[] {
  const byKey = new Map<string, BudgetCounter>();
  for (const limit of limits) {
    const window = windowAt(call.at.getTime(), limit.period, timeZone);
    const key = `${subjectOf(call, limit)}:${limit.period}:${window.id}:${part(limit.ruleId)}:${limit.currency}`;
    const seen = byKey.get(key);
    if (!seen || limit.limitMinor < seen.limit.limitMinor) byKey.set(key, { key, limit, window });
  }
  return [...byKey.values()];
}
