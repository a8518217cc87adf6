// The one place that decides how a subscription and its keys are provisioned and changed. The CLI
// (`toolgate keys`), the admin API and the portal all call it, with their Actor; every change is audited
// in the same transaction as the change itself.
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { Actor } from './actor.js';
import type { AuditSink } from './audit-sink.js';
import type {
  CreateSubscriptionInput,
  SubscriptionChanges,
  SubscriptionStore,
} from '../auth/subscriptions/store.js';
import type {
  Environment,
  IssuedSubscription,
  KeySlot,
  Subscription,
  SubscriptionStatus,
} from '../auth/subscriptions/types.js';
import { AdminError, requireAdmin, translated, validationError } from './errors.js';
import { auditedSubscription } from './views.js';
import { isPrivileged, ownsSubscription } from './applications.js';

const STATUS_ACTION: Record<SubscriptionStatus, string> = {
  active: 'subscription.resume',
  suspended: 'subscription.suspend',
  revoked: 'subscription.revoke',
};

export interface PendingSubscriptionsInput {
  readonly application: string;
  readonly applicationId: string;
  readonly environments: readonly Environment[];
  readonly tools: readonly string[] | null;
  readonly rateLimitPerMinute: number | null;
  /** Tool bundles the subscriptions are limited to (issue 28); null or absent: not limited. */
  readonly bundles?: readonly string[] | null | undefined;
}

export class KeyProvisioning {
  constructor(
    private readonly db: Database,
    private readonly store: SubscriptionStore,
    private readonly audit: AuditSink,
    /**
     * The configured tool bundles (gateway.bundles): a subscription may be limited only to these. Absent:
     * names are not checked against configuration (the store still checks their form).
     */
    private readonly bundleNames?: readonly string[],
  ) {}

  /**
   * A subscription limited to a bundle that is not configured could call nothing: refused, naming the
   * bundles there are.
   */
  checkBundles(bundles: readonly string[] | null | undefined, field = 'bundles'): void {
    if (bundles === null || bundles === undefined || this.bundleNames === undefined) return;
    const unknown = bundles.filter((b) => !this.bundleNames?.includes(b));
    if (unknown.length > 0)
      throw validationError(
        field,
        `no tool bundle is named ${unknown.join(', ')} (configured: ${this.bundleNames.length === 0 ? 'none' : this.bundleNames.join(', ')})`,
      );
  }

  /** A subscription with both keys now (the operator path: `toolgate keys create`). */
  async create(actor: Actor, input: CreateSubscriptionInput): Promise<IssuedSubscription> {
    requireAdmin(actor);
    this.checkBundles(input.bundles);
    return translated(() =>
      this.db.transaction(async (tx) => {
        const issued = await this.store.create(input, tx);
        await this.audit.append(
          {
            actor,
            action: 'subscription.create',
            target: { type: 'subscription', id: issued.subscription.id },
            after: auditedSubscription(issued.subscription),
          },
          tx,
        );
        return issued;
      }),
    );
  }

  /**
   * One subscription per environment for an approved access request, without keys: they are minted when
   * the requester collects them (issueKeys), so no plaintext key ever waits in storage.
   */
  async provisionPending(
    actor: Actor,
    input: PendingSubscriptionsInput,
    tx: SqlExecutor,
  ): Promise<Subscription[]> {
    requireAdmin(actor);
    this.checkBundles(input.bundles);
    const created: Subscription[] = [];
    for (const environment of input.environments) {
      const subscription = await translated(() =>
        this.store.createWithoutKeys(
          {
            application: input.application,
            applicationId: input.applicationId,
            environment,
            tools: input.tools,
            rateLimitPerMinute: input.rateLimitPerMinute,
            bundles: input.bundles ?? null,
          },
          tx,
        ),
      );
      await this.audit.append(
        {
          actor,
          action: 'subscription.create',
          target: { type: 'subscription', id: subscription.id },
          after: auditedSubscription(subscription),
        },
        tx,
      );
      created.push(subscription);
    }
    return created;
  }

  /** Mints the keys of a subscription provisioned without them (once). */
  async issueKeys(actor: Actor, id: string, tx: SqlExecutor): Promise<IssuedSubscription> {
    const issued = await translated(() => this.store.issueKeys(id, tx));
    await this.audit.append(
      {
        actor,
        action: 'subscription.keys.issue',
        target: { type: 'subscription', id },
        after: auditedSubscription(issued.subscription),
      },
      tx,
    );
    return issued;
  }

  async rotate(
    actor: Actor,
    id: string,
    slot: KeySlot,
  ): Promise<{ subscription: Subscription; key: string }> {
    return this.change(
      actor,
      id,
      'subscription.key.rotate',
      (tx) => this.store.rotate(id, slot, tx),
      {
        slot,
      },
    );
  }

  async setStatus(actor: Actor, id: string, status: SubscriptionStatus): Promise<Subscription> {
    requireAdmin(actor);
    return this.change(actor, id, STATUS_ACTION[status], (tx) =>
      this.store.setStatus(id, status, tx),
    );
  }

  async update(actor: Actor, id: string, changes: SubscriptionChanges): Promise<Subscription> {
    requireAdmin(actor);
    this.checkBundles(changes.bundles);
    return this.change(actor, id, 'subscription.update', (tx) =>
      this.store.update(id, changes, tx),
    );
  }

  async setLockoutExempt(actor: Actor, id: string, exempt: boolean): Promise<Subscription> {
    requireAdmin(actor);
    return this.change(actor, id, 'subscription.lockout', (tx) =>
      this.store.setLockoutExempt(id, exempt, tx),
    );
  }

  /** Admins act on every subscription; a developer only on those of applications they own. */
  async authorize(actor: Actor, id: string, ex: SqlExecutor = this.db): Promise<void> {
    if (isPrivileged(actor)) return;
    if (!(await ownsSubscription(ex, actor, id)))
      throw new AdminError('NOT_FOUND', `no subscription ${id}`);
  }

  private async change<T extends Subscription | { subscription: Subscription }>(
    actor: Actor,
    id: string,
    action: string,
    work: (tx: SqlExecutor) => Promise<T>,
    extra: Record<string, unknown> = {},
  ): Promise<T> {
    return translated(() =>
      this.db.transaction(async (tx) => {
        await this.authorize(actor, id, tx);
        const before = await this.store.get(id, tx);
        const result = await work(tx);
        const after: Subscription = 'subscription' in result ? result.subscription : result;
        await this.audit.append(
          {
            actor,
            action,
            target: { type: 'subscription', id },
            before: before === null ? undefined : auditedSubscription(before),
            after: { ...auditedSubscription(after), ...extra },
          },
          tx,
        );
        return result;
      }),
    );
  }
}
