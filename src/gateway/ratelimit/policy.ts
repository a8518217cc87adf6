// Which limits apply to a request (pure).
import { anonymousIpKey } from './client-ip.js';
import type { LimitCheck } from './types.js';

export interface Quota {
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface LimitPolicy {
  readonly user: Quota;
  readonly anonymous: Quota;
  readonly subscriptionDefault: Quota;
  readonly perTool: Readonly<Record<string, Quota>>;
  readonly ipv6PrefixLength: number;
}

export interface RateLimitContext {
  /** Subject of a valid JWT; null for anonymous callers. */
  readonly userId: string | null;
  /** Resolved client IP (see resolveClientIp). */
  readonly clientIp: string;
  /** Id of the subscription the request's key belongs to (never the key itself). */
  readonly subscriptionId: string;
  /** The subscription's own quota, overriding `subscriptionDefault`. */
  readonly subscriptionLimit?: Quota;
  /** Tool called (tools/call), if any. */
  readonly tool?: string;
  /** The subscription's per-tool quotas, overriding the configured `perTool` entries. */
  readonly toolLimits?: Readonly<Record<string, Quota>>;
}

const enc = encodeURIComponent;

function own(map: Readonly<Record<string, Quota>> | undefined, name: string): Quota | undefined {
  return map && Object.hasOwn(map, name) ? map[name] : undefined;
}

function check(scope: LimitCheck['scope'], key: string, q: Quota): LimitCheck {
  return { scope, key, limit: q.limit, windowMs: Math.round(q.windowSeconds * 1000) };
}

/**
 * The checks of one request, decided together (all-or-nothing): the caller's own check (user or
 * client IP), the subscription's, and the tool's when a per-tool quota applies. Key parts are
 * percent-encoded so ids containing `:` cannot collide.
 */
export function checksFor(ctx: RateLimitContext, policy: LimitPolicy): LimitCheck[] {
  const checks: LimitCheck[] = [
    ctx.userId !== null
      ? check('user', `u:${enc(ctx.userId)}`, policy.user)
      : check(
          'ip',
          `ip:${anonymousIpKey(ctx.clientIp, policy.ipv6PrefixLength)}`,
          policy.anonymous,
        ),
    check(
      'subscription',
      `s:${enc(ctx.subscriptionId)}`,
      ctx.subscriptionLimit ?? policy.subscriptionDefault,
    ),
  ];
  if (ctx.tool !== undefined) {
    const toolQuota = own(ctx.toolLimits, ctx.tool) ?? own(policy.perTool, ctx.tool);
    if (toolQuota) {
      checks.push(check('tool', `t:${enc(ctx.subscriptionId)}:${enc(ctx.tool)}`, toolQuota));
    }
  }
  return checks;
}
