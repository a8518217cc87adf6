// The key rotation policy: keys older than `rotationDays` are due (expired), `warnDays` before that they
// warn, and environments the policy enforces refuse expired keys at the gateway. The admin plane writes the
// one row; the gateway reads it through the shape and reader it owns (auth/subscriptions/key-policy.ts).
import type { SqlExecutor } from '../../shared/db/types.js';
import { ENVIRONMENTS } from '../auth/subscriptions/types.js';
import { DAY_MS, type KeyPolicy } from '../auth/subscriptions/key-policy.js';

export {
  DEFAULT_KEY_POLICY,
  readKeyPolicy,
  type KeyPolicy,
} from '../auth/subscriptions/key-policy.js';

export type RotationDue = 'ok' | 'warn' | 'expired';

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
