// Applications: the team-owned thing access is requested for. Developers see their own; admins all.
import { randomBytes } from 'node:crypto';
import type { Database, SqlExecutor } from '../../shared/db/types.js';
import type { SubscriptionStore } from '../auth/subscriptions/store.js';
import { isOwner, ownedBySql, ownerOf, ownerParams, type Actor } from './actor.js';
import { AdminError } from './errors.js';
import { readKeyPolicy } from './key-policy.js';
import { subscriptionView, type SubscriptionView } from './views.js';

export interface Application {
  readonly id: string;
  readonly name: string;
  readonly owner: { readonly subject: string; readonly name: string; readonly email: string };
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ApplicationDetail extends Application {
  readonly subscriptions: readonly SubscriptionView[];
}

interface ApplicationRow {
  id: string;
  name: string;
  owner_subject: string;
  /** null: created before owners had issuers. */
  owner_issuer: string | null;
  owner_name: string;
  owner_email: string;
  created_at: string;
  updated_at: string;
}

export function isPrivileged(actor: Actor): boolean {
  return actor.role === 'admin' || actor.role === 'system';
}

export class ApplicationService {
  constructor(
    private readonly db: Database,
    private readonly store: SubscriptionStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async list(actor: Actor): Promise<Application[]> {
    const rows = isPrivileged(actor)
      ? await this.db.query<ApplicationRow>('SELECT * FROM admin_applications ORDER BY name')
      : await this.db.query<ApplicationRow>(
          `SELECT * FROM admin_applications WHERE ${ownedBySql('owner_issuer', 'owner_subject', 1)} ORDER BY name`,
          ownerParams(actor),
        );
    return rows.map(toApplication);
  }

  async get(actor: Actor, id: string): Promise<ApplicationDetail> {
    const [row] = await this.db.query<ApplicationRow>(
      'SELECT * FROM admin_applications WHERE id = $1',
      [id],
    );
    if (!row || (!isPrivileged(actor) && !isOwner(actor, ownerOfRow(row))))
      throw new AdminError('NOT_FOUND', `no application ${id}`);
    return { ...toApplication(row), subscriptions: await this.subscriptionsOf(id) };
  }

  /** Subscription views (masked keys with their age) of one application, or of every subscription. */
  async subscriptionsOf(applicationId?: string): Promise<SubscriptionView[]> {
    const ids =
      applicationId === undefined
        ? null
        : new Set(
            (
              await this.db.query<{ id: string }>(
                'SELECT id FROM subscriptions WHERE application_id = $1',
                [applicationId],
              )
            ).map((r) => r.id),
          );
    const all = (await this.store.list()).filter((s) => ids === null || ids.has(s.id));
    const keys = await this.store.keys();
    const policy = await readKeyPolicy(this.db);
    const now = this.clock();
    return all.map((s) => subscriptionView(s, keys, policy, now));
  }

  /** One subscription as the actor may see it (NOT_FOUND for another developer's). */
  async subscription(actor: Actor, id: string): Promise<SubscriptionView> {
    if (!isPrivileged(actor) && !(await ownsSubscription(this.db, actor, id)))
      throw new AdminError('NOT_FOUND', `no subscription ${id}`);
    const found = await this.store.get(id);
    if (found === null) throw new AdminError('NOT_FOUND', `no subscription ${id}`);
    const policy = await readKeyPolicy(this.db);
    return subscriptionView(found, await this.store.keys(id), policy, this.clock());
  }

  /** The subscriptions an actor may see: all for admins, those of their own applications otherwise. */
  async visibleSubscriptions(actor: Actor): Promise<SubscriptionView[]> {
    if (isPrivileged(actor)) return this.subscriptionsOf();
    const owned = await this.db.query<{ id: string }>(
      `SELECT s.id FROM subscriptions s JOIN admin_applications a ON a.id = s.application_id
       WHERE ${ownedBySql('a.owner_issuer', 'a.owner_subject', 1)}`,
      ownerParams(actor),
    );
    const ids = new Set(owned.map((r) => r.id));
    return (await this.subscriptionsOf()).filter((s) => ids.has(s.id));
  }

  /**
   * The application named `name` for a request by `actor`: created with the actor as owner when new;
   * an existing one must be the actor's own (admins may request for any).
   */
  async findOrCreate(
    tx: SqlExecutor,
    actor: Actor,
    name: string,
    owner: { name: string; email: string },
  ): Promise<{ application: Application; created: boolean }> {
    const [row] = await tx.query<ApplicationRow>(
      'SELECT * FROM admin_applications WHERE name = $1',
      [name],
    );
    if (row) {
      if (!isPrivileged(actor) && !isOwner(actor, ownerOfRow(row)))
        throw new AdminError(
          'APPLICATION_NAME_TAKEN',
          `application "${name}" belongs to another owner; choose another name`,
        );
      return { application: toApplication(row), created: false };
    }
    const now = this.clock().toISOString();
    const id = `app_${randomBytes(9).toString('base64url')}`;
    const { issuer, subject } = ownerOf(actor);
    await tx.execute(
      `INSERT INTO admin_applications (id, name, owner_issuer, owner_subject, owner_name, owner_email, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [id, name, issuer, subject, owner.name, owner.email, now],
    );
    return {
      application: {
        id,
        name,
        owner: { subject: actor.subject, ...owner },
        createdAt: now,
        updatedAt: now,
      },
      created: true,
    };
  }
}

function ownerOfRow(row: ApplicationRow): { issuer: string | null; subject: string } {
  return { issuer: row.owner_issuer, subject: row.owner_subject };
}

/** Whether the subscription belongs to an application the actor owns (developers act on those only). */
export async function ownsSubscription(
  ex: SqlExecutor,
  actor: Actor,
  subscriptionId: string,
): Promise<boolean> {
  const rows = await ex.query<{ one: number }>(
    `SELECT 1 AS one FROM subscriptions s JOIN admin_applications a ON a.id = s.application_id
     WHERE s.id = $1 AND ${ownedBySql('a.owner_issuer', 'a.owner_subject', 2)}`,
    [subscriptionId, ...ownerParams(actor)],
  );
  return rows.length > 0;
}

function toApplication(row: ApplicationRow): Application {
  return {
    id: row.id,
    name: row.name,
    owner: { subject: row.owner_subject, name: row.owner_name, email: row.owner_email },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
