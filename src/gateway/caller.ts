// Who is calling: the one description of a caller. The gatekeeper builds it once per HTTP request (from
// the subscription key and the user token); every later step reads it: tool visibility, the security
// class, quotas, identity forwarding and the logs.
import type { Environment } from './auth/subscriptions/types.js';
import { ANONYMOUS_SUBJECT, type VerifiedUser } from './auth/user.js';

export interface CallerSubscription {
  readonly id: string;
  readonly application: string;
  readonly environment: Environment;
  /** The tools it may use: every approved tool, or these names (products expanded). */
  readonly tools: ReadonlySet<string> | 'all';
  /** Its own quota per 60 s; null: the configured default. */
  readonly rateLimitPerMinute: number | null;
}

export interface Caller {
  readonly requestId: string;
  /** The client address after trusted proxies (quotas and failed-key limiting count it). */
  readonly clientIp: string;
  readonly subscription: CallerSubscription;
  /** The verified end user; null for an anonymous caller. */
  readonly user: VerifiedUser | null;
  /** The request's one Authorization header as sent, for backends in `passthrough` mode only. */
  readonly authorization?: string | undefined;
}

/** Whether the caller's subscription may use a tool (others look unknown to it). */
export function mayUseTool(caller: Caller, tool: string): boolean {
  const tools = caller.subscription.tools;
  return tools === 'all' || tools.has(tool);
}

/** The subject a backend acts for: the user's, or `anonymous`. */
export function subjectOf(caller: Caller): string {
  return caller.user?.subject ?? ANONYMOUS_SUBJECT;
}
