// Subscriptions: an application's right to call the gateway in one environment, holding two keys
// (primary and secondary) so keys rotate without downtime.

export const ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const KEY_SLOTS = ['primary', 'secondary'] as const;
export type KeySlot = (typeof KEY_SLOTS)[number];

/** active → suspended → active …; any → revoked (terminal). */
export type SubscriptionStatus = 'active' | 'suspended' | 'revoked';

export interface Subscription {
  readonly id: string;
  readonly application: string;
  readonly environment: Environment;
  readonly status: SubscriptionStatus;
  /** Tool names this subscription may use; null = every approved tool. */
  readonly tools: readonly string[] | null;
  /**
   * The tool bundles (gateway.bundles) whose endpoints alone it may use; null = any endpoint, the plain
   * MCP endpoint included (issue 28).
   */
  readonly bundles: readonly string[] | null;
  /** Requests per minute for this subscription; null = the gateway's default. */
  readonly rateLimitPerMinute: number | null;
  /**
   * Its valid keys are accepted even from a client address locked out by failed key attempts (a NAT
   * shared with a misbehaving client); invalid keys from that address are still refused.
   */
  readonly lockoutExempt: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Last 4 characters of each slot's key, for humans telling keys apart. */
  readonly keyHints: Readonly<Partial<Record<KeySlot, string>>>;
}

export interface IssuedSubscription {
  readonly subscription: Subscription;
  readonly primaryKey: string;
  readonly secondaryKey: string;
}

/** One stored key, as administrators see it (never the key itself). */
export interface KeyRecord {
  readonly subscriptionId: string;
  readonly slot: KeySlot;
  readonly last4: string;
  readonly createdAt: string;
  /** Last accepted use, recorded at most once a minute per key; null when never used. */
  readonly lastUsedAt: string | null;
}

export class SubscriptionError extends Error {
  constructor(
    readonly code:
      | 'SUBSCRIPTION_NOT_FOUND'
      | 'SUBSCRIPTION_REVOKED'
      | 'INVALID_ARGUMENT'
      | 'KEYS_ALREADY_ISSUED',
    message: string,
  ) {
    super(message);
    this.name = 'SubscriptionError';
  }
}
