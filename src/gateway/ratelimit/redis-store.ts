// Redis store: one atomic Lua script per decision over sorted sets with TTLs.
import { randomBytes } from 'node:crypto';
import {
  createRedisClient,
  hashTaggedPrefix,
  whenRedisReady,
  type RedisClient,
} from '../../shared/redis.js';
import { DECIDE_SCRIPT } from './redis-script.js';
import type { CheckResult, Clock, LimitCheck, LimitDecision, RateLimitStore } from './types.js';

export interface RedisStoreOptions {
  /** A client to use (not closed by the store) or a URL for a client the store owns. */
  readonly client?: RedisClient;
  /** Any form of src/shared/redis-url.ts: one server, Sentinel or Cluster. */
  readonly url?: string;
  /**
   * Prefix of every key, one per deployment (default `toolgate:rl:`). It becomes the keys' hash tag
   * (src/shared/redis.ts, hashTaggedPrefix), so the keys of one decision share a Cluster slot.
   */
  readonly keyPrefix?: string;
  /** Per-command timeout of an owned client in ms (default 50). */
  readonly commandTimeoutMs?: number;
  /**
   * Time source. Default: the Redis server's clock (one clock for all replicas). Tests inject a
   * clock whose time is passed to the script, which makes the contract identical to the memory store.
   */
  readonly clock?: Clock;
}

/** With caller-supplied time, keys live this much longer than their window on the Redis clock. */
const CALLER_TIME_TTL_SLACK_MS = 60_000;

type RawReply = Array<number | string | null>;

interface DecideCommand {
  rlDecide(...args: Array<string | number>): Promise<RawReply>;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

export class RedisStore implements RateLimitStore {
  readonly #client: RedisClient & DecideCommand;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #clock: Clock | undefined;
  readonly #idBase = randomBytes(6).toString('base64url');
  #seq = 0;

  constructor(options: RedisStoreOptions) {
    let client: RedisClient;
    if (options.client) {
      client = options.client;
      this.#owned = false;
    } else if (options.url) {
      client = createRedisClient(options.url, { commandTimeoutMs: options.commandTimeoutMs ?? 50 });
      // Connection errors surface as failed commands; the resilient store logs and counts them.
      client.on('error', () => undefined);
      this.#owned = true;
    } else {
      throw new Error('RedisStore needs a client or a url');
    }
    if (!('rlDecide' in client)) client.defineCommand('rlDecide', { lua: DECIDE_SCRIPT });
    this.#client = client as RedisClient & DecideCommand;
    this.#prefix = hashTaggedPrefix(options.keyPrefix ?? 'toolgate:rl:');
    this.#clock = options.clock;
  }

  get client(): RedisClient {
    return this.#client;
  }

  /**
   * Resolves once the client is connected (commands issued before fail at once: there is no
   * offline queue). Rejects after `timeoutMs`. Call at startup; decisions do not need it.
   */
  ready(timeoutMs = 5000): Promise<void> {
    return whenRedisReady(this.#client, timeoutMs);
  }

  consume(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    this.#seq = (this.#seq + 1) % Number.MAX_SAFE_INTEGER;
    return this.#decide(checks, `${this.#idBase}${this.#seq.toString(36)}`);
  }

  peek(checks: readonly LimitCheck[]): Promise<LimitDecision> {
    return this.#decide(checks, '');
  }

  /** One run of the script; `member` '' decides without recording (a peek). */
  async #decide(checks: readonly LimitCheck[], member: string): Promise<LimitDecision> {
    if (checks.length === 0) return { allowed: true, checks: [] };
    const args: Array<string | number> = [checks.length];
    for (const c of checks) args.push(this.#prefix + c.key);
    args.push(
      this.#clock ? this.#clock.now().toFixed(3) : '',
      member,
      this.#clock ? CALLER_TIME_TTL_SLACK_MS : 0,
    );
    for (const c of checks) args.push(c.limit, c.windowMs);
    const reply = await this.#client.rlDecide(...args);
    return interpret(checks, reply);
  }

  async close(): Promise<void> {
    if (this.#owned) this.#client.disconnect();
    return Promise.resolve();
  }
}

function interpret(checks: readonly LimitCheck[], reply: RawReply): LimitDecision {
  const allowed = num(reply[0]) === 1;
  const now = num(reply[1]);
  const results: CheckResult[] = [];
  let blocking: { check: LimitCheck; retryAfterMs: number } | undefined;
  checks.forEach((check, i) => {
    const count = num(reply[2 + 3 * i]);
    const oldest = reply[3 + 3 * i];
    const block = reply[4 + 3 * i];
    const resetMs = oldest === '' || oldest == null ? 0 : num(oldest) + check.windowMs - now;
    results.push({ check, remaining: Math.max(0, check.limit - count), resetMs });
    if (!allowed && block !== '' && block != null) {
      const retryAfterMs = num(block) + check.windowMs - now;
      if (!blocking || retryAfterMs > blocking.retryAfterMs) blocking = { check, retryAfterMs };
    }
  });
  return blocking ? { allowed, checks: results, blocking } : { allowed, checks: results };
}
