// Builds the money-budget ledger from the configuration: on the store of the quotas (Redis when the rate
// limiter uses Redis, so budgets are exact across every replica; memory otherwise), in the configured
// time zone. The ledger keeps its own Redis connection and closes it on close().
import type { RedisClient } from '../../../shared/redis.js';
import type { FrozenConfig } from '../../../config/schema.js';
import { effectiveStore } from '../../ratelimit/limiter.js';
import type { BudgetLedger } from '../contracts.js';
import { CounterBudgetLedger, type BudgetLedgerLogger } from './ledger.js';
import { MemoryBudgetStore } from './memory-store.js';
import { RedisBudgetStore } from './redis-store.js';

export interface OpenBudgetLedgerDeps {
  readonly logger?: BudgetLedgerLogger;
  /** A Redis client to share (not closed by the ledger); otherwise one is opened from the configuration. */
  readonly redis?: RedisClient;
  /** Milliseconds now (tests). */
  readonly now?: () => number;
}

export interface OpenedBudgetLedger extends BudgetLedger {
  /** Where the counters live. */
  readonly store: 'memory' | 'redis';
  close(): Promise<void>;
}

type BudgetConfig = Pick<FrozenConfig['gateway'], 'rateLimit' | 'redis'> & {
  readonly governance: Pick<FrozenConfig['gateway']['governance'], 'budgets'>;
};

/**
 * The ledger for `config.gateway`. With Redis, waits up to `readyTimeoutMs` for the connection; when
 * Redis is not reachable it still opens (reservations then fail closed until Redis answers).
 */
export async function openBudgetLedger(
  config: { readonly gateway: BudgetConfig },
  deps: OpenBudgetLedgerDeps = {},
  readyTimeoutMs = 2000,
): Promise<OpenedBudgetLedger> {
  const { rateLimit, redis, governance } = config.gateway;
  const budgets = governance.budgets;
  const url = rateLimit.redis.url ?? redis.url;
  const kind = effectiveStore(
    { ...rateLimit, redis: { ...rateLimit.redis, ...(url === undefined ? {} : { url }) } },
    deps.redis ? { redis: deps.redis } : {},
  );
  let store: MemoryBudgetStore | RedisBudgetStore;
  if (kind === 'memory') store = new MemoryBudgetStore(deps.now ? { now: deps.now } : {});
  else {
    if (!deps.redis && url === undefined)
      throw new Error('gateway.rateLimit.store is "redis" but no Redis URL is configured');
    store = new RedisBudgetStore({
      ...(deps.redis ? { client: deps.redis } : { url }),
      keyPrefix: budgets.redis.keyPrefix,
      commandTimeoutMs: budgets.redis.commandTimeoutMs,
    });
    try {
      await store.ready(readyTimeoutMs);
    } catch (error) {
      deps.logger?.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'budget Redis not reachable at startup: calls with budgets are refused until it is',
      );
    }
  }
  const ledger = new CounterBudgetLedger(store, {
    timeZone: budgets.timeZone,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  return {
    store: kind,
    reserve: (call, limits) => ledger.reserve(call, limits),
    release: (call, reservation) => ledger.release(call, reservation),
    close: () => store.close(),
  };
}
