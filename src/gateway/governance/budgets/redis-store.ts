// Budget counters in Redis, shared by every gateway replica: one script per reserve and per release.
import {
  createRedisClient,
  hashTaggedPrefix,
  whenRedisReady,
  type RedisClient,
} from '../../../shared/redis.js';
import { RELEASE_SCRIPT, RESERVE_SCRIPT } from './redis-scripts.js';
import type { BudgetStore, StoreReserveResult, StoredCounter } from './store.js';

export interface RedisBudgetStoreOptions {
  /** A client to use (not closed by the store) or a URL for a client the store owns. */
  readonly client?: RedisClient;
  /** Any form of src/shared/redis-url.ts: one server, Sentinel or Cluster. */
  readonly url?: string;
  /**
   * Prefix of every key, one per deployment (default `toolgate:budget:`). It becomes the keys' hash
   * tag (src/shared/redis.ts, hashTaggedPrefix): a reservation's counters and its release marker are
   * used together in one script, so they share a Cluster slot.
   */
  readonly keyPrefix?: string;
  /** Per-command timeout of an owned client in ms (default 500). */
  readonly commandTimeoutMs?: number;
}

interface BudgetCommands {
  budgetReserve(...args: Array<string | number>): Promise<Array<number | string>>;
  budgetRelease(...args: Array<string | number>): Promise<number>;
}

export class RedisBudgetStore implements BudgetStore {
  readonly #client: RedisClient & BudgetCommands;
  readonly #owned: boolean;
  readonly #prefix: string;

  constructor(options: RedisBudgetStoreOptions) {
    let client: RedisClient;
    if (options.client) {
      client = options.client;
      this.#owned = false;
    } else if (options.url) {
      // Fails fast while disconnected (no offline queue): the ledger then refuses (fails closed).
      client = createRedisClient(options.url, {
        commandTimeoutMs: options.commandTimeoutMs ?? 500,
      });
      client.on('error', () => undefined);
      this.#owned = true;
    } else {
      throw new Error('RedisBudgetStore needs a client or a url');
    }
    if (!('budgetReserve' in client)) {
      client.defineCommand('budgetReserve', { lua: RESERVE_SCRIPT });
      client.defineCommand('budgetRelease', { lua: RELEASE_SCRIPT });
    }
    this.#client = client as RedisClient & BudgetCommands;
    this.#prefix = hashTaggedPrefix(options.keyPrefix ?? 'toolgate:budget:');
  }

  /** Resolves once the client is connected; rejects after `timeoutMs`. */
  ready(timeoutMs = 5000): Promise<void> {
    return whenRedisReady(this.#client, timeoutMs);
  }

  async reserve(
    counters: readonly StoredCounter[],
    amountMinor: number,
  ): Promise<StoreReserveResult> {
    if (counters.length === 0) return { ok: true };
    const args: Array<string | number> = [counters.length];
    for (const c of counters) args.push(this.#prefix + c.key);
    args.push(amountMinor);
    for (const c of counters) args.push(c.limitMinor, Math.max(1, Math.ceil(c.ttlMs)));
    const reply = await this.#client.budgetReserve(...args);
    if (Number(reply[0]) === 1) return { ok: true };
    return { ok: false, index: Number(reply[1]) - 1, usedMinor: Number(reply[2]) };
  }

  async release(
    reservationId: string,
    counters: readonly Omit<StoredCounter, 'limitMinor'>[],
    amountMinor: number,
    ttlMs: number,
  ): Promise<boolean> {
    const keys = [`${this.#prefix}released:${reservationId}`];
    for (const c of counters) keys.push(this.#prefix + c.key);
    const reply = await this.#client.budgetRelease(
      keys.length,
      ...keys,
      amountMinor,
      Math.max(1, Math.ceil(ttlMs)),
    );
    return Number(reply) === 1;
  }

  async used(key: string): Promise<number> {
    return Number((await this.#client.get(this.#prefix + key)) ?? 0);
  }

  close(): Promise<void> {
    if (this.#owned) this.#client.disconnect();
    return Promise.resolve();
  }
}
