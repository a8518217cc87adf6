// What a rate-limit decision comes to (pure): the limiter counts it in its metrics, the gatekeeper answers
// by it (gatekeeper/refusals.ts).
import type { LimitDecision } from './types.js';

/** Admitted; refused by a quota (the decision names the blocking check); or no limiter could decide. */
export function outcomeOf(decision: LimitDecision): 'allowed' | 'rejected' | 'unavailable' {
  if (decision.allowed) return 'allowed';
  return decision.degraded === 'fail-closed' || !decision.blocking ? 'unavailable' : 'rejected';
}
