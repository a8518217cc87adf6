// Checks the subscription key of a request: well-formed, known, active, of this deployment's
// environment. Lookups are cached briefly (bounded), and failed attempts per client IP are limited so
// keys cannot be guessed.
import { isWellFormedKey } from '../keys/format.js';
import { anonymousIpKey } from '../../ratelimit/client-ip.js';
import type { SubscriptionStore } from './store.js';
import { isExpiredUnderPolicy, type KeyPolicy } from './key-policy.js';
import type { Environment, Subscription } from './types.js';

export type KeyFailureCode =
  | 'SUBSCRIPTION_KEY_MISSING'
  | 'SUBSCRIPTION_KEY_INVALID'
  | 'SUBSCRIPTION_SUSPENDED'
  | 'SUBSCRIPTION_WRONG_ENVIRONMENT'
  | 'SUBSCRIPTION_KEY_EXPIRED'
  | 'TOO_MANY_FAILED_ATTEMPTS';

export type KeyCheck =
  | { readonly ok: true; readonly subscription: Subscription }
  | {
      readonly ok: false;
      readonly code: KeyFailureCode;
      readonly status: 401 | 403 | 429;
      readonly message: string;
      readonly retryAfterSeconds?: number;
    };

export interface KeyAuthenticatorOptions {
  readonly environment: Environment;
  readonly cacheTtlMs: number;
  readonly failedAttempts: { readonly limit: number; readonly windowSeconds: number };
  /**
   * IPv6 clients are counted per prefix of this length, the rule of the anonymous quota
   * (gateway.rateLimit.ipv6PrefixLength): one subscriber controls a whole /64. Default 64.
   */
  readonly ipv6PrefixLength?: number;
  readonly clock?: () => number;
  /** Bound on cached lookups and on tracked client IPs. */
  readonly maxEntries?: number;
  /** The key rotation policy (admin plane), read from memory; enforced environments refuse old keys. */
  readonly keyPolicy?: { current(): KeyPolicy };
  /** Told of every accepted key (by hash) so its last use can be recorded off the request path. */
  readonly keyUse?: { used(keyHash: string): void };
}

interface CacheEntry {
  readonly found: Found | null;
  readonly expires: number;
}

interface Found {
  readonly subscription: Subscription;
  readonly keyHash: string;
  readonly keyCreatedAt: number;
}

interface FailureWindow {
  start: number;
  count: number;
}

export class SubscriptionKeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly failures = new Map<string, FailureWindow>();
  private readonly clock: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly store: SubscriptionStore,
    private readonly options: KeyAuthenticatorOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10000;
  }

  async check(key: string | undefined, clientIp: string): Promise<KeyCheck> {
    const client = anonymousIpKey(clientIp, this.options.ipv6PrefixLength ?? 64);
    if (key === undefined || key === '') {
      return fail(
        'SUBSCRIPTION_KEY_MISSING',
        401,
        'Missing subscription key: send it in the Ocp-Apim-Subscription-Key header.',
      );
    }
    const blocked = this.blockedFor(client);
    if (blocked > 0) {
      const found = isWellFormedKey(key) ? await this.lookup(key) : null;
      const exempt = found?.subscription;
      if (
        found &&
        exempt?.lockoutExempt === true &&
        exempt.status === 'active' &&
        exempt.environment === this.options.environment &&
        !this.expired(found)
      )
        return this.accept(found);
      return {
        ...fail(
          'TOO_MANY_FAILED_ATTEMPTS',
          429,
          'Too many failed subscription key attempts from this address; try again later.',
        ),
        retryAfterSeconds: blocked,
      };
    }
    const found = isWellFormedKey(key) ? await this.lookup(key) : null;
    if (found === null) {
      this.recordFailure(client);
      return fail('SUBSCRIPTION_KEY_INVALID', 401, 'Invalid subscription key.');
    }
    const subscription = found.subscription;
    if (subscription.environment !== this.options.environment) {
      this.recordFailure(client);
      return fail(
        'SUBSCRIPTION_WRONG_ENVIRONMENT',
        401,
        `This subscription key belongs to another environment; this gateway serves ${this.options.environment}.`,
      );
    }
    if (subscription.status === 'suspended') {
      return fail(
        'SUBSCRIPTION_SUSPENDED',
        403,
        'This subscription is suspended; contact the API owner.',
      );
    }
    if (subscription.status !== 'active') {
      this.recordFailure(client);
      return fail('SUBSCRIPTION_KEY_INVALID', 401, 'Invalid subscription key.');
    }
    if (this.expired(found)) {
      return fail(
        'SUBSCRIPTION_KEY_EXPIRED',
        401,
        `This subscription key is older than the key rotation policy allows in ${this.options.environment}; rotate it and use the new key.`,
      );
    }
    return this.accept(found);
  }

  private expired(found: Found): boolean {
    const policy = this.options.keyPolicy?.current();
    return (
      policy !== undefined &&
      isExpiredUnderPolicy(found.keyCreatedAt, this.clock(), policy, this.options.environment)
    );
  }

  private accept(found: Found): KeyCheck {
    this.options.keyUse?.used(found.keyHash);
    return { ok: true, subscription: found.subscription };
  }

  /** Forgets cached lookups (after an administrative change made in this process). */
  invalidate(): void {
    this.cache.clear();
  }

  private async lookup(key: string): Promise<Found | null> {
    const now = this.clock();
    const hash = this.store.hash(key);
    const cached = this.cache.get(hash);
    if (cached && cached.expires > now) return cached.found;
    const row = await this.store.findByKey(key);
    const found =
      row === null
        ? null
        : {
            subscription: row.subscription,
            keyHash: hash,
            keyCreatedAt: Date.parse(row.keyCreatedAt),
          };
    if (this.options.cacheTtlMs > 0) {
      this.cache.delete(hash);
      if (this.cache.size >= this.maxEntries)
        this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, { found, expires: now + this.options.cacheTtlMs });
    }
    return found;
  }

  /** Seconds until this IP may try again, or 0 when it is not blocked. */
  private blockedFor(ip: string): number {
    const window = this.failures.get(ip);
    if (!window) return 0;
    const windowMs = this.options.failedAttempts.windowSeconds * 1000;
    const elapsed = this.clock() - window.start;
    if (elapsed >= windowMs) {
      this.failures.delete(ip);
      return 0;
    }
    return window.count >= this.options.failedAttempts.limit
      ? Math.max(1, Math.ceil((windowMs - elapsed) / 1000))
      : 0;
  }

  private recordFailure(ip: string): void {
    const now = this.clock();
    const windowMs = this.options.failedAttempts.windowSeconds * 1000;
    const current = this.failures.get(ip);
    if (current && now - current.start < windowMs) {
      current.count += 1;
      return;
    }
    this.failures.delete(ip);
    if (this.failures.size >= this.maxEntries)
      this.failures.delete(this.failures.keys().next().value as string);
    this.failures.set(ip, { start: now, count: 1 });
  }
}

type KeyFailure = Extract<KeyCheck, { ok: false }>;

function fail(code: KeyFailureCode, status: 401 | 403 | 429, message: string): KeyFailure {
  return { ok: false, code, status, message };
}
