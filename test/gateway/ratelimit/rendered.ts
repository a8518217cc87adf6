// A rate-limit decision as the gateway answers it (src/gateway/gatekeeper/refusals.ts): the HTTP status,
// the header fields and the JSON-RPC error, in the shape these tests assert.
import { quotaHeaders, quotaRefusal } from '../../../src/gateway/gatekeeper/refusals.js';
import type { LimitDecision } from '../../../src/gateway/ratelimit/types.js';

export interface Rendered {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly error?: { readonly code: number; readonly message: string; readonly data: unknown };
  readonly decision: LimitDecision;
}

export function rendered(decision: LimitDecision): Rendered {
  const refusal = quotaRefusal(decision);
  if (refusal === undefined) return { status: 200, headers: quotaHeaders(decision), decision };
  return {
    status: refusal.httpStatus,
    headers: refusal.headers ?? {},
    error: { code: refusal.rpcCode, message: refusal.message, data: refusal.data },
    decision,
  };
}
