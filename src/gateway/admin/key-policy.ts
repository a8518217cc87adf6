// The key rotation policy: keys older than `rotationDays` are due (expired), `warnDays` before that they
// warn, and environments the policy enforces refuse expired keys at the gateway. The rules are pure; the
// repository keeps the one row (absent = the defaults).
import type { SqlExecutor } from '../../shared/db/types.js';
import { ENVIRONMENTS, type Environment } from '../auth/subscriptions/types.js';

export interface KeyPolicy {
  readonly rotationDays: number;
  readonly warnDays: number;
  readonly enforce: Readonly<Record<Environment, boolean>>;
}

export type RotationDue = 'ok' | 'warn' | 'expired';

/** 90 days: the specification's recommended rotation practice; warnings two weeks ahead; nothing enforced. */
export const DEFAULT_KEY_POLICY: KeyPolicy = Object.freeze({
  rotationDays: 90,
  warnDays: 14,
  enforce: Object.freeze({ development: false, staging: false, production: false }),
});

const DAY_MS = 86_400_000;

export interface KeyAge {
  readonly ageDays: number;
  readonly rotationDue: RotationDue;
}

export function keyAge(createdAt: string, now: Date, policy: KeyPolicy): KeyAge {
  const ageMs = Math.max(0, now.getTime() - Date.parse(createdAt));
  const ageDays = Math.floor(ageMs / DAY_MS);
  const rotationDue: RotationDue =
    ageMs >= policy.rotationDays * DAY_MS
      ? 'expired'
      : ageMs >= (policy.rotationDays - policy.warnDays) * DAY_MS
        ? 'warn'
        : 'ok';
  return { ageDays, rotationDue };
}

/** True when `environment` enforces the policy and a key created at `createdAt` is past it. */
export function isExpiredUnderPolicy(
  createdAtMs: number,
  nowMs: number,
  policy: KeyPolicy,
  environment: Environment,
): boolean {
  return policy.enforce[environment] && nowMs - createdAtMs >= policy.rotationDays * DAY_MS;
}

interface PolicyRow {
  rotation_days: number;
  warn_days: number;
  enforce_development: number;
  enforce_staging: number;
  enforce_production: number;
}

export async function readKeyPolicy(ex: SqlExecutor): Promise<KeyPolicy> {
  const [row] = await ex.query<PolicyRow>('SELECT * FROM admin_key_policy WHERE id = 1');
  if (!row) return DEFAULT_KEY_POLICY;
  return {
    rotationDays: Number(row.rotation_days),
    warnDays: Number(row.warn_days),
    enforce: {
      development: Number(row.enforce_development) === 1,
      staging: Number(row.enforce_staging) === 1,
      production: Number(row.enforce_production) === 1,
    },
  };
}

export async function writeKeyPolicy(
  tx: SqlExecutor,
  policy: KeyPolicy,
  updatedBy: string,
  now: Date,
): Promise<void> {
  const flags = ENVIRONMENTS.map((e) => (policy.enforce[e] ? 1 : 0));
  const updated = await tx.execute(
    `UPDATE admin_key_policy SET rotation_days = $1, warn_days = $2, enforce_development = $3,
       enforce_staging = $4, enforce_production = $5, updated_at = $6, updated_by = $7 WHERE id = 1`,
    [policy.rotationDays, policy.warnDays, ...flags, now.toISOString(), updatedBy],
  );
  if (updated === 0)
    await tx.execute(
      `INSERT INTO admin_key_policy (id, rotation_days, warn_days, enforce_development, enforce_staging,
         enforce_production, updated_at, updated_by) VALUES (1, $1, $2, $3, $4, $5, $6, $7)`,
      [policy.rotationDays, policy.warnDays, ...flags, now.toISOString(), updatedBy],
    );
}

/**
 * The policy as the gateway's key check reads it: from memory, never waiting for the database. A read
 * older than `refreshMs` starts one refresh in the background; until the first read completes, the
 * defaults (nothing enforced) apply.
 */
export class CachedKeyPolicy {
  private policy: KeyPolicy = DEFAULT_KEY_POLICY;
  private readAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly ex: SqlExecutor,
    private readonly refreshMs = 5_000,
    private readonly clock: () => number = Date.now,
  ) {}

  current(): KeyPolicy {
    if (this.clock() - this.readAt >= this.refreshMs) void this.refresh();
    return this.policy;
  }

  refresh(): Promise<void> {
    this.refreshing ??= readKeyPolicy(this.ex)
      .then((policy) => {
        this.policy = policy;
        this.readAt = this.clock();
      })
      .catch(() => {
        // Keep serving the last policy read; try again at the next interval.
        this.readAt = this.clock();
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }
}
