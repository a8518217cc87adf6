// The key rotation policy as the gateway's key check reads it. The admin plane writes the one row
// (`admin_key_policy`, src/gateway/admin/key-policy.ts); this module owns the shape the gateway reads, the
// rule it enforces, and the reader it keeps in memory so no request waits for the database.
import type { SqlExecutor } from '../../../shared/db/types.js';
import type { Environment } from './types.js';

export interface KeyPolicy {
  readonly rotationDays: number;
  readonly warnDays: number;
  readonly enforce: Readonly<Record<Environment, boolean>>;
}

/** 90 days: the specification's recommended rotation practice; warnings two weeks ahead; nothing enforced. */
export const DEFAULT_KEY_POLICY: KeyPolicy = Object.freeze({
  rotationDays: 90,
  warnDays: 14,
  enforce: Object.freeze({ development: false, staging: false, production: false }),
});

export const DAY_MS = 86_400_000;

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

/** The stored policy; the defaults while none is stored. */
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
