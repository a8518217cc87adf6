// The gatekeeper's decisions as the gateway answers them: each refusal becomes the one GatewayError (code,
// message, data and headers; the code gives the HTTP status and the JSON-RPC code, errors.ts), and an
// admitted message gets its quota header fields. The deciders know nothing of HTTP or JSON-RPC: the key
// check returns a KeyDecision, the rate limiter a LimitDecision, the token verifier throws an AuthError.
// Pure.
//
// Quota header fields follow draft-ietf-httpapi-ratelimit-headers (-08 … -11), Structured Field Lists:
//   RateLimit-Policy: "user";q=500;w=60, "subscription";q=100;w=60
//   RateLimit: "user";r=499;t=60, "subscription";r=12;t=41
// One list member per check of the decision, named after its scope; q = quota, w = window (s),
// r = remaining, t = seconds until the oldest counted request leaves the sliding window.
import type { AuthError } from '../auth/jwt/errors.js';
import {
  challengeFor,
  insufficientScopeChallenge,
  missingTokenChallenge,
  type ChallengeOptions,
} from '../auth/jwt/www-authenticate.js';
import type { KeyRefusal } from '../auth/subscriptions/authenticate.js';
import type { Tool } from '../catalogue/types.js';
import { GatewayError } from '../errors.js';
import { outcomeOf } from '../ratelimit/outcome.js';
import type { LimitDecision } from '../ratelimit/types.js';

type Headers = Readonly<Record<string, string>>;

/** The challenge of a refused subscription key (RFC 9110 §11.6.1). */
const KEY_CHALLENGE = 'ApiKey header="Ocp-Apim-Subscription-Key"';

/**
 * A subscription limited to tool bundles used elsewhere (issue 28): 403 naming the bundles it may use, so
 * the developer knows which endpoint to configure. `at` is the bundle the request came to (none: the plain
 * MCP endpoint).
 */
export function bundleRefusal(allowed: readonly string[], at: string | undefined): GatewayError {
  const where = at === undefined ? 'the plain MCP endpoint' : `the bundle ${at}`;
  return new GatewayError(
    'FORBIDDEN',
    `This subscription is limited to the tool bundle${allowed.length === 1 ? '' : 's'} ${allowed.join(', ')}; it cannot be used at ${where}.`,
    {
      reason: 'SUBSCRIPTION_BUNDLE_LIMITED',
      bundles: [...allowed],
      ...(at === undefined ? {} : { bundle: at }),
    },
  );
}

/** A refused subscription key: 401 with the key challenge, 403 (suspended) or 429 with Retry-After. */
export function keyRefusal(refusal: KeyRefusal): GatewayError {
  const data = { reason: refusal.reason };
  switch (refusal.reason) {
    case 'SUBSCRIPTION_KEY_MISSING':
      return unauthenticatedKey(
        'Missing subscription key: send it in the Ocp-Apim-Subscription-Key header.',
        data,
      );
    case 'SUBSCRIPTION_KEY_INVALID':
      return unauthenticatedKey('Invalid subscription key.', data);
    case 'SUBSCRIPTION_WRONG_ENVIRONMENT':
      return unauthenticatedKey(
        `This subscription key belongs to another environment; this gateway serves ${refusal.environment}.`,
        data,
      );
    case 'SUBSCRIPTION_KEY_EXPIRED':
      return unauthenticatedKey(
        `This subscription key is older than the key rotation policy allows in ${refusal.environment}; rotate it and use the new key.`,
        data,
      );
    case 'SUBSCRIPTION_SUSPENDED':
      return new GatewayError(
        'FORBIDDEN',
        'This subscription is suspended; contact the API owner.',
        data,
        {},
      );
    case 'TOO_MANY_FAILED_ATTEMPTS':
      return new GatewayError(
        'RATE_LIMITED',
        'Too many failed subscription key attempts from this address; try again later.',
        data,
        { 'Retry-After': String(retryAfterSeconds(refusal.retryAfterMs)) },
      );
    case 'FAILED_ATTEMPTS_UNCHECKED':
      // The lockout is a quota: when its store cannot decide under `closed`, the quotas' own answer.
      return limiterUnavailable({});
  }
}

function unauthenticatedKey(message: string, data: { reason: string }): GatewayError {
  return new GatewayError('UNAUTHENTICATED', message, data, { 'WWW-Authenticate': KEY_CHALLENGE });
}

/** The quota header fields of an admitted message (none when the decision carries no quota state). */
export function quotaHeaders(decision: LimitDecision): Headers {
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

/**
 * A message a quota refused: 429 naming the blocking quota, with Retry-After; or 503 when no limiter
 * could decide and the policy is fail-closed. Undefined for an admitted message.
 */
export function quotaRefusal(decision: LimitDecision): GatewayError | undefined {
  const outcome = outcomeOf(decision);
  if (outcome === 'allowed') return undefined;
  const fields = quotaHeaders(decision);
  if (outcome === 'unavailable' || decision.blocking === undefined)
    return limiterUnavailable(fields);
  const { check, retryAfterMs } = decision.blocking;
  const retry = retryAfterSeconds(retryAfterMs);
  return new GatewayError(
    'RATE_LIMITED',
    `Rate limit exceeded (${check.scope})`,
    {
      scope: check.scope,
      limit: check.limit,
      windowSeconds: windowSeconds(check.windowMs),
      retryAfterSeconds: retry,
    },
    { ...fields, 'Retry-After': String(retry) },
  );
}

function limiterUnavailable(fields: Headers): GatewayError {
  return new GatewayError(
    'RATE_LIMIT_UNAVAILABLE',
    'Rate limiter unavailable',
    { retryAfterSeconds: 1 },
    { ...fields, 'Retry-After': '1' },
  );
}

/** Whole seconds for Retry-After: rounded up, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function windowSeconds(windowMs: number): number {
  return Math.max(1, Math.round(windowMs / 1000));
}

/** An invalid user token (or a missing one where the mode requires it): 401 with a Bearer challenge. */
export function tokenRefusal(error: AuthError, challenge: ChallengeOptions): GatewayError {
  return new GatewayError(
    'UNAUTHENTICATED',
    `Invalid or missing user token: ${error.message}`,
    { reason: error.code },
    { 'WWW-Authenticate': challengeFor(error, challenge) },
  );
}

/** A tool that acts for a user (or needs scopes) called without one: 401 naming the scopes to ask for. */
export function userRequired(
  tool: Tool,
  challenge: ChallengeOptions & { scope: readonly string[] },
): GatewayError {
  const needed = tool.scopes ?? [];
  return new GatewayError(
    'UNAUTHENTICATED',
    `Tool "${tool.name}" acts on behalf of a user: send a valid user token in the Authorization header (Bearer).`,
    {
      reason: 'TOKEN_MISSING',
      tool: tool.name,
      ...(needed.length > 0 ? { scope: needed } : {}),
    },
    { 'WWW-Authenticate': missingTokenChallenge(challenge) },
  );
}

/** A user token without a scope the tool needs: 403 insufficient_scope naming them (step-up). */
export function scopeMissing(
  tool: Tool,
  missing: readonly string[],
  challenge: ChallengeOptions & { scope: readonly string[] },
): GatewayError {
  const message = `Tool "${tool.name}" needs the scope ${missing.join(' ')}, which the user token does not grant: sign in again asking for it.`;
  return new GatewayError(
    'FORBIDDEN',
    message,
    { reason: 'INSUFFICIENT_SCOPE', tool: tool.name, scope: tool.scopes ?? [] },
    { 'WWW-Authenticate': insufficientScopeChallenge(message, challenge) },
  );
}
