// HTTP and JSON-RPC rendering of a rate-limit decision (pure).
//
// Header fields follow draft-ietf-httpapi-ratelimit-headers (-08 … -11), Structured Field Lists:
//   RateLimit-Policy: "user";q=500;w=60, "subscription";q=100;w=60
//   RateLimit: "user";r=499;t=60, "subscription";r=12;t=41
// One list member per check of the decision, named after its scope; q = quota, w = window (s),
// r = remaining, t = seconds until the oldest counted request leaves the sliding window.
import { GATEWAY_ERRORS } from '../errors.js';
import type { LimitDecision } from './types.js';

/** JSON-RPC error code of a request refused by a quota (HTTP 429). */
export const RATE_LIMITED_CODE = GATEWAY_ERRORS.RATE_LIMITED.rpc;
/** JSON-RPC error code when no limiter could decide and the policy is fail-closed (HTTP 503). */
export const RATE_LIMIT_UNAVAILABLE_CODE = GATEWAY_ERRORS.RATE_LIMIT_UNAVAILABLE.rpc;

export interface RateLimitErrorData {
  readonly scope: string;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly retryAfterSeconds: number;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data: RateLimitErrorData | { readonly retryAfterSeconds: number };
}

export interface RateLimitResponse {
  /** 200 = proceed; 429 = over a quota; 503 = limiter unavailable (fail-closed). */
  readonly status: 200 | 429 | 503;
  /** Header fields to set on the response, whatever the status. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON-RPC `error` member to answer with when status is not 200. */
  readonly error?: JsonRpcErrorObject;
}

/** Whole seconds for Retry-After: rounded up, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function windowSeconds(windowMs: number): number {
  return Math.max(1, Math.round(windowMs / 1000));
}

/** `RateLimit-Policy` and `RateLimit` values; empty when the decision carries no quota state. */
export function rateLimitFields(decision: LimitDecision): Record<string, string> {
  if (decision.degraded === 'fail-open' || decision.degraded === 'fail-closed') return {};
  if (decision.checks.length === 0) return {};
  const policy = decision.checks
    .map(({ check }) => `"${check.scope}";q=${check.limit};w=${windowSeconds(check.windowMs)}`)
    .join(', ');
  const state = decision.checks
    .map(
      ({ check, remaining, resetMs }) =>
        `"${check.scope}";r=${remaining};t=${Math.max(0, Math.ceil(resetMs / 1000))}`,
    )
    .join(', ');
  return { 'RateLimit-Policy': policy, RateLimit: state };
}

/** Status, header fields and JSON-RPC error for a decision. */
export function rateLimitResponse(decision: LimitDecision): RateLimitResponse {
  const headers = rateLimitFields(decision);
  if (decision.allowed) return { status: 200, headers };
  if (decision.degraded === 'fail-closed' || !decision.blocking) {
    return {
      status: 503,
      headers: { ...headers, 'Retry-After': '1' },
      error: {
        code: RATE_LIMIT_UNAVAILABLE_CODE,
        message: 'Rate limiter unavailable',
        data: { retryAfterSeconds: 1 },
      },
    };
  }
  const { check, retryAfterMs } = decision.blocking;
  const retry = retryAfterSeconds(retryAfterMs);
  return {
    status: 429,
    headers: { ...headers, 'Retry-After': String(retry) },
    error: {
      code: RATE_LIMITED_CODE,
      message: `Rate limit exceeded (${check.scope})`,
      data: {
        scope: check.scope,
        limit: check.limit,
        windowSeconds: windowSeconds(check.windowMs),
        retryAfterSeconds: retry,
      },
    },
  };
}
