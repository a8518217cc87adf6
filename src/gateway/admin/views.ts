// What the admin plane shows of a subscription and its keys: masked keys (`tgk_…1234`) with their age
// under the rotation policy. Pure; used by the API, the CLI and the audit entries.
import type { KeyRecord, Subscription } from '../auth/subscriptions/types.js';
import { keyAge, type KeyPolicy, type RotationDue } from './key-policy.js';

export interface KeyView {
  readonly slot: 'primary' | 'secondary';
  readonly masked: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly ageDays: number;
  readonly rotationDue: RotationDue;
}

export interface SubscriptionView {
  readonly id: string;
  readonly application: string;
  readonly environment: Subscription['environment'];
  readonly status: Subscription['status'];
  readonly tools: readonly string[] | null;
  /** The tool bundles it is limited to; null: not limited. */
  readonly bundles: readonly string[] | null;
  readonly rateLimitPerMinute: number | null;
  readonly lockoutExempt: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly keys: readonly KeyView[];
}

export function maskedKey(last4: string): string {
  return `tgk_…${last4}`;
}

export function keyView(key: KeyRecord, policy: KeyPolicy, now: Date): KeyView {
  return {
    slot: key.slot,
    masked: maskedKey(key.last4),
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    ...keyAge(key.createdAt, now, policy),
  };
}

export function subscriptionView(
  s: Subscription,
  keys: readonly KeyRecord[],
  policy: KeyPolicy,
  now: Date,
): SubscriptionView {
  return {
    id: s.id,
    application: s.application,
    environment: s.environment,
    status: s.status,
    tools: s.tools,
    bundles: s.bundles,
    rateLimitPerMinute: s.rateLimitPerMinute,
    lockoutExempt: s.lockoutExempt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    keys: keys.filter((k) => k.subscriptionId === s.id).map((k) => keyView(k, policy, now)),
  };
}

/** The subscription as an audit entry records it: no key material beyond the masked last four. */
export function auditedSubscription(s: Subscription): Record<string, unknown> {
  return {
    application: s.application,
    environment: s.environment,
    status: s.status,
    tools: s.tools,
    bundles: s.bundles,
    rateLimitPerMinute: s.rateLimitPerMinute,
    lockoutExempt: s.lockoutExempt,
    keys: Object.fromEntries(Object.entries(s.keyHints).map(([slot, l4]) => [slot, maskedKey(l4)])),
  };
}
