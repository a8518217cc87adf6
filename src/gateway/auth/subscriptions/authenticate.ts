// Checks the subscription key of a request: well-formed, known, active, of this deployment's
// environment. Lookups are cached briefly (bounded), and failed attempts per client IP are limited so
// keys cannot be guessed: counted in the rate limiter's store, so every worker and replica sharing it
// (Redis) shares one count per address.
import { isWellFormedKey } from '../keys/format.js';
import { anonymousIpKey } from '../../ratelimit/client-ip.js';
import { MemoryStore } from '../../ratelimit/memory-store.js';
import type { LimitCheck, RateLimitStore } from '../../ratelimit/types.js';
import type { SubscriptionStore } from './store.js';
import { isExpiredUnderPolicy, type KeyPolicy } from './key-policy.js';
import type { Environment, Subscription } from './types.js';

/**
 * A refused key: why (`data.reason` of the refusal, docs/errors.md) and what explains it. The gatekeeper
 * renders it (gatekeeper/refusals.ts). `FAILED_ATTEMPTS_UNCHECKED`: the shared store could not say whether
 * the address is locked out and gateway.rateLimit.onStoreFailure is `closed`.
 */
export type KeyRefusal =
  | {
      readonly ok: false;
      readonly reason:
        | 'SUBSCRIPTION_KEY_MISSING'
        | 'SUBSCRIPTION_KEY_INVALID'
        | 'SUBSCRIPTION_SUSPENDED'
        | 'FAILED_ATTEMPTS_UNCHECKED';
    }
  | {
      readonly ok: false;
      readonly reason: 'SUBSCRIPTION_WRONG_ENVIRONMENT' | 'SUBSCRIPTION_KEY_EXPIRED';
      /** The environment this gateway serves. */
      readonly environment: Environment;
    }
  | {
      readonly ok: false;
      readonly reason: 'TOO_MANY_FAILED_ATTEMPTS';
      /** Milliseconds until the address may try again. */
      readonly retryAfterMs: number;
    };

/** What the key check decided: the subscription, or why not. */
export type KeyDecision = { readonly ok: true; readonly subscription: Subscription } | KeyRefusal;

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
  /** Bound on cached lookups (and on tracked client IPs of the default memory store). */
  readonly maxEntries?: number;
  /**
   * Where failed attempts per client IP are counted: the rate limiter's store (Redis when configured,
   * shared by every worker and replica; its outage follows gateway.rateLimit.onStoreFailure). Default: a
   * store in this process's memory on `clock`.
   */
  readonly attempts?: RateLimitStore;
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

export class SubscriptionKeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly attempts: RateLimitStore;
  private readonly clock: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly store: SubscriptionStore,
    private readonly options: KeyAuthenticatorOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10000;
    this.attempts =
      options.attempts ??
      new MemoryStore({ maxKeys: this.maxEntries, sweepIntervalMs: 0, clock: { now: this.clock } });
  }

  async check(key: string | undefined, clientIp: string): Promise<KeyDecision> {
    if (key === undefined || key === '') return { ok: false, reason: 'SUBSCRIPTION_KEY_MISSING' };
    const failures = this.failuresOf(clientIp);
    const [lockout, found] = await Promise.all([
      this.attempts.peek([failures]),
      isWellFormedKey(key) ? this.lookup(key) : null,
    ]);
    if (lockout.degraded === 'fail-closed')
      return { ok: false, reason: 'FAILED_ATTEMPTS_UNCHECKED' };
    if (!lockout.allowed) {
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
        ok: false,
        reason: 'TOO_MANY_FAILED_ATTEMPTS',
        retryAfterMs: lockout.blocking?.retryAfterMs ?? 0,
      };
    }
    if (found === null)
      return this.failed(failures, { ok: false, reason: 'SUBSCRIPTION_KEY_INVALID' });
    const subscription = found.subscription;
    const environment = this.options.environment;
    if (subscription.environment !== environment)
      return this.failed(failures, {
        ok: false,
        reason: 'SUBSCRIPTION_WRONG_ENVIRONMENT',
        environment,
      });
    if (subscription.status === 'suspended') return { ok: false, reason: 'SUBSCRIPTION_SUSPENDED' };
    if (subscription.status !== 'active')
      return this.failed(failures, { ok: false, reason: 'SUBSCRIPTION_KEY_INVALID' });
    if (this.expired(found)) return { ok: false, reason: 'SUBSCRIPTION_KEY_EXPIRED', environment };
    return this.accept(found);
  }

  /** The failed-attempt log of a client address (an IPv6 client counted per prefix, as quotas count it). */
  private failuresOf(clientIp: string): LimitCheck {
    const client = anonymousIpKey(clientIp, this.options.ipv6PrefixLength ?? 64);
    const { limit, windowSeconds } = this.options.failedAttempts;
    return { scope: 'failed-keys', key: `kf:${client}`, limit, windowMs: windowSeconds * 1000 };
  }

  /** Counts a failed attempt against the address, then refuses. */
  private async failed(failures: LimitCheck, refusal: KeyRefusal): Promise<KeyRefusal> {
    await this.attempts.consume([failures]);
    return refusal;
  }

  private expired(found: Found): boolean {
    const policy = this.options.keyPolicy?.current();
    return (
      policy !== undefined &&
      isExpiredUnderPolicy(found.keyCreatedAt, this.clock(), policy, this.options.environment)
    );
  }

  private accept(found: Found): KeyDecision {
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
}
