// The subscription store: keys are generated here, returned once, and only their hashes are kept. Every
// change can join a caller's transaction (`tx`), so the admin plane records a change and its audit entry
// in one commit; without one, each change is its own transaction.
import { randomBytes } from 'node:crypto';
import type { Database, SqlExecutor } from '../../../shared/db/types.js';
import { generateSubscriptionKey } from '../keys/format.js';
import { hashSubscriptionKey } from '../keys/hash.js';
import {
  SubscriptionError,
  type Environment,
  type IssuedSubscription,
  type KeyRecord,
  type KeySlot,
  type Subscription,
  type SubscriptionStatus,
} from './types.js';

interface SubscriptionRow {
  id: string;
  application: string;
  environment: Environment;
  status: SubscriptionStatus;
  tools: string | null;
  bundles: string | null;
  rate_limit_per_minute: number | null;
  lockout_exempt: number;
  created_at: string;
  updated_at: string;
}

export interface CreateSubscriptionInput {
  readonly application: string;
  readonly environment: Environment;
  readonly tools?: readonly string[] | null;
  /** The tool bundles whose endpoints alone it may use; null or absent: any endpoint. */
  readonly bundles?: readonly string[] | null;
  readonly rateLimitPerMinute?: number | null;
  readonly lockoutExempt?: boolean;
  /** The admin plane's application record this subscription belongs to. */
  readonly applicationId?: string | null;
}

export interface SubscriptionChanges {
  readonly tools?: readonly string[] | null;
  readonly bundles?: readonly string[] | null;
  readonly rateLimitPerMinute?: number | null;
}

const APPLICATION_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;
/** A tool name, or `product:NAME` for every tool of a configured product (gateway.products). */
const TOOL_NAME = /^(product:)?[A-Za-z0-9_-]{1,64}$/;
/** A bundle name (gateway.bundles keys). */
const BUNDLE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export class SubscriptionStore {
  constructor(
    private readonly db: Database,
    private readonly pepper?: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  hash(key: string): string {
    return hashSubscriptionKey(key, this.pepper);
  }

  /** Creates a subscription with both keys, returned once. */
  async create(input: CreateSubscriptionInput, tx?: SqlExecutor): Promise<IssuedSubscription> {
    return this.within(tx, async (ex) => {
      const id = await this.insertSubscription(ex, input);
      const keys = await this.mintKeys(ex, id);
      return { subscription: await this.require(id, ex), ...keys };
    });
  }

  /** Creates a subscription without keys yet (issueKeys mints them later, once). */
  async createWithoutKeys(input: CreateSubscriptionInput, tx?: SqlExecutor): Promise<Subscription> {
    return this.within(tx, async (ex) =>
      this.require(await this.insertSubscription(ex, input), ex),
    );
  }

  /** Mints the primary and secondary key of a subscription that has none yet. */
  async issueKeys(id: string, tx?: SqlExecutor): Promise<IssuedSubscription> {
    return this.within(tx, async (ex) => {
      const current = await this.lockedRow(ex, id);
      if (current.status === 'revoked')
        throw new SubscriptionError('SUBSCRIPTION_REVOKED', `subscription ${id} is revoked`);
      const existing = await ex.query(
        'SELECT 1 FROM subscription_keys WHERE subscription_id = $1',
        [id],
      );
      if (existing.length > 0)
        throw new SubscriptionError('KEYS_ALREADY_ISSUED', `subscription ${id} already has keys`);
      const keys = await this.mintKeys(ex, id);
      return { subscription: await this.require(id, ex), ...keys };
    });
  }

  async list(ex: SqlExecutor = this.db): Promise<Subscription[]> {
    const rows = await ex.query<SubscriptionRow>(
      'SELECT * FROM subscriptions ORDER BY created_at, id',
    );
    const hints = await this.hints(ex);
    return rows.map((row) => toSubscription(row, hints.get(row.id) ?? {}));
  }

  async get(id: string, ex: SqlExecutor = this.db): Promise<Subscription | null> {
    const [row] = await ex.query<SubscriptionRow>('SELECT * FROM subscriptions WHERE id = $1', [
      id,
    ]);
    if (!row) return null;
    const hints = await this.hints(ex, id);
    return toSubscription(row, hints.get(id) ?? {});
  }

  /** Every stored key (or those of one subscription) with its creation and last use. */
  async keys(subscriptionId?: string, ex: SqlExecutor = this.db): Promise<KeyRecord[]> {
    const rows = await ex.query<{
      subscription_id: string;
      slot: KeySlot;
      last4: string;
      created_at: string;
      last_used_at: string | null;
    }>(
      `SELECT subscription_id, slot, last4, created_at, last_used_at FROM subscription_keys${
        subscriptionId === undefined ? '' : ' WHERE subscription_id = $1'
      } ORDER BY subscription_id, slot`,
      subscriptionId === undefined ? [] : [subscriptionId],
    );
    return rows.map((r) => ({
      subscriptionId: r.subscription_id,
      slot: r.slot,
      last4: r.last4,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
    }));
  }

  /** Replaces one slot's key; the other slot keeps working, so clients can switch without downtime. */
  async rotate(
    id: string,
    slot: KeySlot,
    tx?: SqlExecutor,
  ): Promise<{ subscription: Subscription; key: string }> {
    const key = generateSubscriptionKey();
    return this.within(tx, async (ex) => {
      const now = this.clock().toISOString();
      const current = await this.lockedRow(ex, id);
      if (current.status === 'revoked') {
        throw new SubscriptionError(
          'SUBSCRIPTION_REVOKED',
          `subscription ${id} is revoked; create a new one`,
        );
      }
      await ex.execute('DELETE FROM subscription_keys WHERE subscription_id = $1 AND slot = $2', [
        id,
        slot,
      ]);
      await this.insertKey(ex, id, slot, key, now);
      await ex.execute('UPDATE subscriptions SET updated_at = $2 WHERE id = $1', [id, now]);
      return { subscription: await this.require(id, ex), key };
    });
  }

  async setStatus(id: string, status: SubscriptionStatus, tx?: SqlExecutor): Promise<Subscription> {
    return this.within(tx, async (ex) => {
      const now = this.clock().toISOString();
      const current = await this.lockedRow(ex, id);
      if (current.status === 'revoked' && status !== 'revoked') {
        throw new SubscriptionError(
          'SUBSCRIPTION_REVOKED',
          `subscription ${id} is revoked and cannot be ${status === 'active' ? 'resumed' : 'changed'}`,
        );
      }
      await ex.execute('UPDATE subscriptions SET status = $2, updated_at = $3 WHERE id = $1', [
        id,
        status,
        now,
      ]);
      // A revoked subscription's keys are deleted: nothing can ever match them again.
      if (status === 'revoked')
        await ex.execute('DELETE FROM subscription_keys WHERE subscription_id = $1', [id]);
      return this.require(id, ex);
    });
  }

  /** Changes the tools and/or the quota of a subscription that is not revoked. */
  async update(id: string, changes: SubscriptionChanges, tx?: SqlExecutor): Promise<Subscription> {
    if (changes.tools !== undefined) checkTools(changes.tools);
    if (changes.bundles !== undefined) checkBundles(changes.bundles);
    if (changes.rateLimitPerMinute !== undefined) checkLimit(changes.rateLimitPerMinute);
    return this.within(tx, async (ex) => {
      const current = await this.lockedRow(ex, id);
      if (current.status === 'revoked')
        throw new SubscriptionError('SUBSCRIPTION_REVOKED', `subscription ${id} is revoked`);
      const tools =
        changes.tools === undefined
          ? current.tools
          : changes.tools === null
            ? null
            : JSON.stringify(changes.tools);
      const limit =
        changes.rateLimitPerMinute === undefined
          ? current.rate_limit_per_minute
          : changes.rateLimitPerMinute;
      const bundles =
        changes.bundles === undefined ? current.bundles : bundlesColumn(changes.bundles);
      await ex.execute(
        'UPDATE subscriptions SET tools = $2, rate_limit_per_minute = $3, updated_at = $4, bundles = $5 WHERE id = $1',
        [id, tools, limit, this.clock().toISOString(), bundles],
      );
      return this.require(id, ex);
    });
  }

  /** Exempts the subscription's valid keys from the failed-attempt lockout, or ends the exemption. */
  async setLockoutExempt(id: string, exempt: boolean, tx?: SqlExecutor): Promise<Subscription> {
    return this.within(tx, async (ex) => {
      const now = this.clock().toISOString();
      const current = await this.lockedRow(ex, id);
      if (current.status === 'revoked')
        throw new SubscriptionError('SUBSCRIPTION_REVOKED', `subscription ${id} is revoked`);
      await ex.execute(
        'UPDATE subscriptions SET lockout_exempt = $2, updated_at = $3 WHERE id = $1',
        [id, exempt ? 1 : 0, now],
      );
      return this.require(id, ex);
    });
  }

  /** Finds the subscription a presented key belongs to (by hash), or null. */
  async findByKey(
    key: string,
  ): Promise<{ subscription: Subscription; slot: KeySlot; keyCreatedAt: string } | null> {
    const [row] = await this.db.query<SubscriptionRow & { slot: KeySlot; key_created_at: string }>(
      `SELECT s.*, k.slot, k.created_at AS key_created_at FROM subscription_keys k
       JOIN subscriptions s ON s.id = k.subscription_id WHERE k.key_hash = $1`,
      [this.hash(key)],
    );
    if (!row) return null;
    return {
      subscription: toSubscription(row, { [row.slot]: key.slice(-4) }),
      slot: row.slot,
      keyCreatedAt: row.key_created_at,
    };
  }

  /** Records the last use of keys, by hash (the gateway's key-usage recorder calls it in batches). */
  async recordKeyUse(uses: ReadonlyMap<string, string>): Promise<void> {
    if (uses.size === 0) return;
    await this.db.transaction(async (tx) => {
      for (const [hash, at] of uses)
        await tx.execute(
          'UPDATE subscription_keys SET last_used_at = $2 WHERE key_hash = $1 AND (last_used_at IS NULL OR last_used_at < $2)',
          [hash, at],
        );
    });
  }

  private within<T>(
    tx: SqlExecutor | undefined,
    work: (ex: SqlExecutor) => Promise<T>,
  ): Promise<T> {
    return tx === undefined ? this.db.transaction(work) : work(tx);
  }

  private async insertSubscription(
    ex: SqlExecutor,
    input: CreateSubscriptionInput,
  ): Promise<string> {
    if (!APPLICATION_NAME.test(input.application)) {
      throw new SubscriptionError(
        'INVALID_ARGUMENT',
        'application name must be 1-100 characters of letters, digits, space, ".", "_" or "-"',
      );
    }
    const tools = input.tools ?? null;
    checkTools(tools);
    const limit = input.rateLimitPerMinute ?? null;
    checkLimit(limit);
    const bundles = input.bundles ?? null;
    checkBundles(bundles);
    const id = `sub_${randomBytes(9).toString('base64url')}`;
    const now = this.clock().toISOString();
    await ex.execute(
      `INSERT INTO subscriptions (id, application, environment, status, tools, rate_limit_per_minute, lockout_exempt, created_at, updated_at, application_id, bundles)
       VALUES ($1, $2, $3, 'active', $4, $5, $7, $6, $6, $8, $9)`,
      [
        id,
        input.application,
        input.environment,
        tools === null ? null : JSON.stringify(tools),
        limit,
        now,
        input.lockoutExempt === true ? 1 : 0,
        input.applicationId ?? null,
        bundlesColumn(bundles),
      ],
    );
    return id;
  }

  private async mintKeys(
    ex: SqlExecutor,
    id: string,
  ): Promise<{ primaryKey: string; secondaryKey: string }> {
    const now = this.clock().toISOString();
    const primaryKey = generateSubscriptionKey();
    const secondaryKey = generateSubscriptionKey();
    await this.insertKey(ex, id, 'primary', primaryKey, now);
    await this.insertKey(ex, id, 'secondary', secondaryKey, now);
    return { primaryKey, secondaryKey };
  }

  private async require(id: string, ex: SqlExecutor): Promise<Subscription> {
    const found = await this.get(id, ex);
    if (!found) throw new SubscriptionError('SUBSCRIPTION_NOT_FOUND', `no subscription ${id}`);
    return found;
  }

  private async lockedRow(tx: SqlExecutor, id: string): Promise<SubscriptionRow> {
    const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const [row] = await tx.query<SubscriptionRow>(
      `SELECT * FROM subscriptions WHERE id = $1${lock}`,
      [id],
    );
    if (!row) throw new SubscriptionError('SUBSCRIPTION_NOT_FOUND', `no subscription ${id}`);
    return row;
  }

  private async insertKey(
    tx: SqlExecutor,
    id: string,
    slot: KeySlot,
    key: string,
    now: string,
  ): Promise<void> {
    await tx.execute(
      'INSERT INTO subscription_keys (key_hash, subscription_id, slot, last4, created_at) VALUES ($1, $2, $3, $4, $5)',
      [this.hash(key), id, slot, key.slice(-4), now],
    );
  }

  private async hints(
    ex: SqlExecutor,
    id?: string,
  ): Promise<Map<string, Partial<Record<KeySlot, string>>>> {
    const rows = await ex.query<{ subscription_id: string; slot: KeySlot; last4: string }>(
      id === undefined
        ? 'SELECT subscription_id, slot, last4 FROM subscription_keys'
        : 'SELECT subscription_id, slot, last4 FROM subscription_keys WHERE subscription_id = $1',
      id === undefined ? [] : [id],
    );
    const out = new Map<string, Partial<Record<KeySlot, string>>>();
    for (const row of rows)
      out.set(row.subscription_id, { ...out.get(row.subscription_id), [row.slot]: row.last4 });
    return out;
  }
}

function checkTools(tools: readonly string[] | null): void {
  const badTool = tools?.find((t) => !TOOL_NAME.test(t));
  if (badTool !== undefined) {
    throw new SubscriptionError(
      'INVALID_ARGUMENT',
      `tool name "${badTool}" is not a valid tool name`,
    );
  }
}

/**
 * Bundle names as configuration spells them. Whether a bundle of that name is configured is the caller's
 * check (the admin plane knows gateway.bundles); a name no bundle has limits the subscription to nothing.
 * An empty list would lock the subscription out of every endpoint: refused (null means not limited).
 */
function checkBundles(bundles: readonly string[] | null): void {
  if (bundles === null) return;
  if (bundles.length === 0)
    throw new SubscriptionError(
      'INVALID_ARGUMENT',
      'bundles: name at least one bundle, or none (null) for a subscription not limited to bundles',
    );
  const bad = bundles.find((b) => !BUNDLE_NAME.test(b));
  if (bad !== undefined)
    throw new SubscriptionError('INVALID_ARGUMENT', `bundles: "${bad}" is not a valid bundle name`);
}

/** The stored form: a sorted JSON array without repeats, or NULL. */
function bundlesColumn(bundles: readonly string[] | null): string | null {
  return bundles === null ? null : JSON.stringify([...new Set(bundles)].sort());
}

function checkLimit(limit: number | null): void {
  if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000)) {
    throw new SubscriptionError(
      'INVALID_ARGUMENT',
      'rate limit must be an integer between 1 and 1000000',
    );
  }
}

function toSubscription(
  row: SubscriptionRow,
  keyHints: Partial<Record<KeySlot, string>>,
): Subscription {
  return {
    id: row.id,
    application: row.application,
    environment: row.environment,
    status: row.status,
    tools: row.tools === null ? null : (JSON.parse(row.tools) as string[]),
    bundles: row.bundles === null ? null : (JSON.parse(row.bundles) as string[]),
    rateLimitPerMinute:
      row.rate_limit_per_minute === null ? null : Number(row.rate_limit_per_minute),
    lockoutExempt: Number(row.lockout_exempt) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    keyHints,
  };
}
