// The subscription store: keys are generated here, returned once, and only their hashes are kept.
import { randomBytes } from 'node:crypto';
import type { Database, SqlExecutor } from '../../../shared/db/types.js';
import { generateSubscriptionKey } from '../keys/format.js';
import { hashSubscriptionKey } from '../keys/hash.js';
import {
  SubscriptionError,
  type Environment,
  type IssuedSubscription,
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
  rate_limit_per_minute: number | null;
  lockout_exempt: number;
  created_at: string;
  updated_at: string;
}

export interface CreateSubscriptionInput {
  readonly application: string;
  readonly environment: Environment;
  readonly tools?: readonly string[] | null;
  readonly rateLimitPerMinute?: number | null;
  readonly lockoutExempt?: boolean;
}

const APPLICATION_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;
/** A tool name, or `product:NAME` for every tool of a configured product (gateway.products). */
const TOOL_NAME = /^(product:)?[A-Za-z0-9_-]{1,64}$/;

export class SubscriptionStore {
  constructor(
    private readonly db: Database,
    private readonly pepper?: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  hash(key: string): string {
    return hashSubscriptionKey(key, this.pepper);
  }

  async create(input: CreateSubscriptionInput): Promise<IssuedSubscription> {
    if (!APPLICATION_NAME.test(input.application)) {
      throw new SubscriptionError(
        'INVALID_ARGUMENT',
        'application name must be 1-100 characters of letters, digits, space, ".", "_" or "-"',
      );
    }
    const tools = input.tools ?? null;
    const badTool = tools?.find((t) => !TOOL_NAME.test(t));
    if (badTool !== undefined) {
      throw new SubscriptionError(
        'INVALID_ARGUMENT',
        `tool name "${badTool}" is not a valid tool name`,
      );
    }
    const limit = input.rateLimitPerMinute ?? null;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000)) {
      throw new SubscriptionError(
        'INVALID_ARGUMENT',
        'rate limit must be an integer between 1 and 1000000',
      );
    }
    const id = `sub_${randomBytes(9).toString('base64url')}`;
    const now = this.clock().toISOString();
    const primaryKey = generateSubscriptionKey();
    const secondaryKey = generateSubscriptionKey();
    await this.db.transaction(async (tx) => {
      await tx.execute(
        `INSERT INTO subscriptions (id, application, environment, status, tools, rate_limit_per_minute, lockout_exempt, created_at, updated_at)
         VALUES ($1, $2, $3, 'active', $4, $5, $7, $6, $6)`,
        [
          id,
          input.application,
          input.environment,
          tools === null ? null : JSON.stringify(tools),
          limit,
          now,
          input.lockoutExempt === true ? 1 : 0,
        ],
      );
      await this.insertKey(tx, id, 'primary', primaryKey, now);
      await this.insertKey(tx, id, 'secondary', secondaryKey, now);
    });
    return { subscription: await this.require(id), primaryKey, secondaryKey };
  }

  async list(): Promise<Subscription[]> {
    const rows = await this.db.query<SubscriptionRow>(
      'SELECT * FROM subscriptions ORDER BY created_at, id',
    );
    const hints = await this.hints();
    return rows.map((row) => toSubscription(row, hints.get(row.id) ?? {}));
  }

  async get(id: string): Promise<Subscription | null> {
    const [row] = await this.db.query<SubscriptionRow>(
      'SELECT * FROM subscriptions WHERE id = $1',
      [id],
    );
    if (!row) return null;
    const hints = await this.hints(id);
    return toSubscription(row, hints.get(id) ?? {});
  }

  /** Replaces one slot's key; the other slot keeps working, so clients can switch without downtime. */
  async rotate(id: string, slot: KeySlot): Promise<{ subscription: Subscription; key: string }> {
    const key = generateSubscriptionKey();
    const now = this.clock().toISOString();
    await this.db.transaction(async (tx) => {
      const current = await this.lockedRow(tx, id);
      if (current.status === 'revoked') {
        throw new SubscriptionError(
          'SUBSCRIPTION_REVOKED',
          `subscription ${id} is revoked; create a new one`,
        );
      }
      await tx.execute('DELETE FROM subscription_keys WHERE subscription_id = $1 AND slot = $2', [
        id,
        slot,
      ]);
      await this.insertKey(tx, id, slot, key, now);
      await tx.execute('UPDATE subscriptions SET updated_at = $2 WHERE id = $1', [id, now]);
    });
    return { subscription: await this.require(id), key };
  }

  async setStatus(id: string, status: SubscriptionStatus): Promise<Subscription> {
    const now = this.clock().toISOString();
    await this.db.transaction(async (tx) => {
      const current = await this.lockedRow(tx, id);
      if (current.status === 'revoked' && status !== 'revoked') {
        throw new SubscriptionError(
          'SUBSCRIPTION_REVOKED',
          `subscription ${id} is revoked and cannot be ${status === 'active' ? 'resumed' : 'changed'}`,
        );
      }
      await tx.execute('UPDATE subscriptions SET status = $2, updated_at = $3 WHERE id = $1', [
        id,
        status,
        now,
      ]);
      // A revoked subscription's keys are deleted: nothing can ever match them again.
      if (status === 'revoked')
        await tx.execute('DELETE FROM subscription_keys WHERE subscription_id = $1', [id]);
    });
    return this.require(id);
  }

  /** Exempts the subscription's valid keys from the failed-attempt lockout, or ends the exemption. */
  async setLockoutExempt(id: string, exempt: boolean): Promise<Subscription> {
    const now = this.clock().toISOString();
    await this.db.transaction(async (tx) => {
      const current = await this.lockedRow(tx, id);
      if (current.status === 'revoked')
        throw new SubscriptionError('SUBSCRIPTION_REVOKED', `subscription ${id} is revoked`);
      await tx.execute(
        'UPDATE subscriptions SET lockout_exempt = $2, updated_at = $3 WHERE id = $1',
        [id, exempt ? 1 : 0, now],
      );
    });
    return this.require(id);
  }

  /** Finds the subscription a presented key belongs to (by hash), or null. */
  async findByKey(key: string): Promise<{ subscription: Subscription; slot: KeySlot } | null> {
    const [row] = await this.db.query<SubscriptionRow & { slot: KeySlot }>(
      `SELECT s.*, k.slot FROM subscription_keys k JOIN subscriptions s ON s.id = k.subscription_id
       WHERE k.key_hash = $1`,
      [this.hash(key)],
    );
    if (!row) return null;
    return { subscription: toSubscription(row, { [row.slot]: key.slice(-4) }), slot: row.slot };
  }

  private async require(id: string): Promise<Subscription> {
    const found = await this.get(id);
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

  private async hints(id?: string): Promise<Map<string, Partial<Record<KeySlot, string>>>> {
    const rows = await this.db.query<{ subscription_id: string; slot: KeySlot; last4: string }>(
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
    rateLimitPerMinute:
      row.rate_limit_per_minute === null ? null : Number(row.rate_limit_per_minute),
    lockoutExempt: Number(row.lockout_exempt) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    keyHints,
  };
}
