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

/**
 * A tool bundle (`gateway.bundles.<name>`, served at `<mcp.path>/<name>`): what the request's endpoint
 * offers. Absent on the plain MCP path.
 */
export interface BundleScope {
  readonly name: string;
  /** The bundle's tools (entries expanded to catalogue names; an unknown name matches nothing). */
  readonly tools: ReadonlySet<string>;
  /** URI prefixes of the resources it offers (of those approved). */
  readonly resources: readonly string[];
  /** Prompt names (as the gateway lists them) it offers. */
  readonly prompts: ReadonlySet<string>;
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
  /** The bundle whose endpoint the request came to (issue 28); absent on the plain MCP path. */
  readonly bundle?: BundleScope | undefined;
}

/**
 * Whether the caller may use a tool (others look unknown to it): its subscription allows it, and, at a
 * bundle's endpoint, the bundle has it.
 */
export function mayUseTool(caller: Caller, tool: string): boolean {
  const tools = caller.subscription.tools;
  if (caller.bundle !== undefined && !caller.bundle.tools.has(tool)) return false;
  return tools === 'all' || tools.has(tool);
}

/** The subject a backend acts for: the user's, or `anonymous`. */
export function subjectOf(caller: Caller): string {
  return caller.user?.subject ?? ANONYMOUS_SUBJECT;
}
