// Shared types of the rate-limiting module. Pure declarations, no runtime code.

/** Which policy a check belongs to; also the policy name used in the RateLimit header fields. */
export type LimitScope = 'user' | 'ip' | 'subscription' | 'tool' | 'failed-keys';

/** One counter a request is checked against: at most `limit` admissions per sliding `windowMs`. */
export interface LimitCheck {
  readonly scope: LimitScope;
  /** Store key without the deployment prefix, e.g. `u:alice`, `ip:192.0.2.1`, `s:sub_1`, `t:sub_1:getX`. */
  readonly key: string;
  readonly limit: number;
  readonly windowMs: number;
}

/** State of one check after the decision (after recording, when the request was admitted). */
export interface CheckResult {
  readonly check: LimitCheck;
  /** Admissions still available in the current sliding window (0 when exhausted). */
  readonly remaining: number;
  /** Milliseconds until the oldest counted admission leaves the window (0 when none is counted). */
  readonly resetMs: number;
}

/** How a decision was reached when the primary store could not decide. */
export type Degradation = 'fallback' | 'fail-open' | 'fail-closed';

export interface LimitDecision {
  /** True when every check had room; the admission was then recorded in every check. */
  readonly allowed: boolean;
  readonly checks: readonly CheckResult[];
  /** The check that blocked the request (the one whose slot frees last) and when a retry can succeed. */
  readonly blocking?: { readonly check: LimitCheck; readonly retryAfterMs: number };
  /**
   * Set when the primary store failed: `fallback` = a local limiter decided, `fail-open` = admitted
   * unchecked, `fail-closed` = refused because no limiter could decide (the gateway answers 503).
   */
  readonly degraded?: Degradation;
}

/** A place where sliding logs live. One `consume` is one atomic, all-or-nothing decision. */
export interface RateLimitStore {
  consume(checks: readonly LimitCheck[]): Promise<LimitDecision>;
  /** The decision `consume` would make now, recording nothing (the failed-key lockout asks first). */
  peek(checks: readonly LimitCheck[]): Promise<LimitDecision>;
  close(): Promise<void>;
}

/** Milliseconds on a clock that should not jump backwards; injected so tests control time. */
export interface Clock {
  now(): number;
}

/** Structured logger subset the module logs through (pino-compatible). Never given secrets. */
export interface RateLimitLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
}
