// Usage as the admin plane shows it: per subscription and tool over the last hour or day, from the rows
// the gateway records itself (src/gateway/usage/). Admins see every subscription; a developer sees only
// the subscriptions of their own applications. Counts reach the table when a replica flushes (every
// gateway.usage.flushMs), so the newest seconds may be missing.
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../../shared/db/types.js';
import { UsageStore, WINDOW_MS, type UsageSummary, type UsageWindow } from '../usage/store.js';
import type { Actor } from './actor.js';
import { validated } from './http/validate.js';
import { stringEnum } from './validate-input.js';

export const UsageQuerySchema = Type.Object(
  {
    subscription: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    tool: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    window: Type.Optional(stringEnum(['hour', 'day'] as const, { default: 'hour' })),
  },
  { additionalProperties: false },
);

export type UsageQueryInput = Static<typeof UsageQuerySchema>;

export interface UsageReport {
  readonly window: UsageWindow;
  /** Start and end of the window (ISO 8601). */
  readonly since: string;
  readonly until: string;
  readonly rows: readonly UsageSummary[];
}

export interface UsageServiceDeps {
  readonly db: Database;
  /** The subscription ids a developer may see (their applications'); admins see all. */
  readonly subscriptionsOf: (actor: Actor) => Promise<readonly string[]>;
  readonly now?: () => Date;
}

export class UsageService {
  private readonly store: UsageStore;

  constructor(private readonly deps: UsageServiceDeps) {
    this.store = new UsageStore(deps.db);
  }

  async report(actor: Actor, query: unknown): Promise<UsageReport> {
    const input = validated(UsageQuerySchema, query ?? {}, 'query');
    const window = input.window ?? 'hour';
    const now = this.deps.now?.() ?? new Date();
    let rows = await this.store.summarise({
      window,
      subscriptionId: input.subscription,
      tool: input.tool,
      now,
    });
    if (actor.role !== 'admin' && actor.role !== 'system') {
      const own = new Set(await this.deps.subscriptionsOf(actor));
      rows = rows.filter((r) => own.has(r.subscriptionId));
    }
    return {
      window,
      since: new Date(now.getTime() - WINDOW_MS[window]).toISOString(),
      until: now.toISOString(),
      rows,
    };
  }
}
