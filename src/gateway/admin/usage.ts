// Usage as the admin plane shows it: per subscription and tool over the last hour or day, from the rows
// the gateway records itself (src/gateway/usage/). Admins see every subscription; a developer sees only
// the subscriptions of their own applications. Counts reach the table when a replica flushes (every
// gateway.usage.flushMs), so the newest seconds may be missing.
import { Type, type Static } from '@sinclair/typebox';
import type { Database } from '../../shared/db/types.js';
import {
  UsageStore,
  WINDOW_MS,
  type UsagePoint,
  type UsageSummary,
  type UsageWindow,
} from '../usage/store.js';
import type { Actor } from './actor.js';
import type { RotationDue } from './key-policy.js';
import type { KeyView, SubscriptionView } from './views.js';
import { stringEnum } from '../../shared/json-schema/string-enum.js';

export const UsageQuerySchema = Type.Object(
  {
    subscription: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'one subscription id' }),
    ),
    tool: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'one tool name' }),
    ),
    window: Type.Optional(stringEnum(['hour', 'day'] as const, { default: 'hour' })),
  },
  { additionalProperties: false },
);

export type UsageQueryInput = Static<typeof UsageQuerySchema>;

/** A subscription the report has rows of, with its keys' age under the rotation policy. */
export interface UsageSubscription {
  readonly id: string;
  readonly application: string;
  readonly environment: string;
  readonly status: string;
  readonly keys: readonly Pick<KeyView, 'slot' | 'masked' | 'ageDays' | 'rotationDue'>[];
  /** Some key is due for rotation (`warn`) or past it (`expired`). */
  readonly rotationDue: RotationDue;
}

export interface UsageReport {
  readonly window: UsageWindow;
  /** Start and end of the window (ISO 8601). */
  readonly since: string;
  readonly until: string;
  readonly rows: readonly UsageSummary[];
  /** The subscriptions of the rows (known ones), so the usage view can warn about old keys. */
  readonly subscriptions: readonly UsageSubscription[];
}

export interface UsageServiceDeps {
  readonly db: Database;
  /** The subscriptions the actor may see (every one for admins, a developer's own). */
  readonly subscriptionsOf: (actor: Actor) => Promise<readonly SubscriptionView[]>;
  readonly now?: () => Date;
}

export class UsageService {
  private readonly store: UsageStore;

  constructor(private readonly deps: UsageServiceDeps) {
    this.store = new UsageStore(deps.db);
  }

  async report(actor: Actor, input: UsageQueryInput): Promise<UsageReport> {
    const window = input.window ?? 'hour';
    const now = this.deps.now?.() ?? new Date();
    let rows = await this.store.summarise({
      window,
      subscriptionId: input.subscription,
      tool: input.tool,
      now,
    });
    const visible = await this.visible(actor);
    // Admins see every row, also of subscriptions deleted since; developers only their own.
    if (actor.role !== 'admin' && actor.role !== 'system')
      rows = rows.filter((r) => visible.has(r.subscriptionId));
    const ids = [...new Set(rows.map((r) => r.subscriptionId))];
    return {
      window,
      since: new Date(now.getTime() - WINDOW_MS[window]).toISOString(),
      until: now.toISOString(),
      rows,
      subscriptions: ids.flatMap((id) => {
        const view = visible.get(id);
        return view === undefined ? [] : [usageSubscription(view)];
      }),
    };
  }

  /** The same rows per interval, under the same visibility (developers: their own subscriptions). */
  async series(actor: Actor, input: UsageQueryInput): Promise<UsageSeries> {
    const window = input.window ?? 'hour';
    const now = this.deps.now?.() ?? new Date();
    let points = await this.store.series({
      window,
      subscriptionId: input.subscription,
      tool: input.tool,
      now,
    });
    if (actor.role !== 'admin' && actor.role !== 'system') {
      const visible = await this.visible(actor);
      points = points.filter((p) => visible.has(p.subscriptionId));
    }
    return { window, until: now.toISOString(), points };
  }

  private async visible(actor: Actor): Promise<Map<string, SubscriptionView>> {
    return new Map((await this.deps.subscriptionsOf(actor)).map((v) => [v.id, v]));
  }
}

/** Usage per interval (minutes over the hour, hours over the day), for the portal's charts. */
export interface UsageSeries {
  readonly window: UsageWindow;
  readonly until: string;
  readonly points: readonly UsagePoint[];
}

const DUE_ORDER: readonly RotationDue[] = ['ok', 'warn', 'expired'];

function usageSubscription(view: SubscriptionView): UsageSubscription {
  const keys = view.keys.map(({ slot, masked, ageDays, rotationDue }) => ({
    slot,
    masked,
    ageDays,
    rotationDue,
  }));
  const worst = keys.reduce<RotationDue>(
    (a, k) => (DUE_ORDER.indexOf(k.rotationDue) > DUE_ORDER.indexOf(a) ? k.rotationDue : a),
    'ok',
  );
  return {
    id: view.id,
    application: view.application,
    environment: view.environment,
    status: view.status,
    keys,
    rotationDue: worst,
  };
}
