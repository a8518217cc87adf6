// The one writer of the hash-chained audit log (admin_audit_log): each entry chained to the previous one by
// hash = sha256(previous hash + canonical JSON of the entry). Appends are serialised (PostgreSQL: a
// transaction-scoped advisory lock; SQLite: the BEGIN IMMEDIATE write lock every transaction takes), so
// concurrent appends can never fork the chain. Secrets never enter it: subscription keys and bearer
// tokens that slip into `before`/`after` are masked before hashing. The admin plane (admin/audit-log.ts)
// reads, exports and verifies the chain; the data plane records governed calls through it
// (governance/evidence.ts) without importing the admin plane.
import { createHash } from 'node:crypto';
import type { SqlExecutor } from '../../shared/db/types.js';
import { canonicalJson } from '../../shared/canonical-json.js';

export const GENESIS_HASH = '0'.repeat(64);

/** Who an entry is about (admin/actor.ts's Actor is one). */
export interface AuditChainActor {
  readonly role: string;
  readonly subject: string;
  readonly via: string;
  readonly name?: string | undefined;
}

export interface AuditChainEntry {
  readonly actor: AuditChainActor;
  readonly action: string;
  readonly target: { readonly type: string; readonly id: string };
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Subscription keys and anything shaped like a bearer token (JWT or admin token). */
const SECRET_PATTERNS: readonly RegExp[] = [
  /tgk_[0-9A-Za-z]{30}/g,
  /tga_[0-9A-Za-z_-]{20,}/g,
  /eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]*/g,
];

/** Appends one entry inside `tx` (the caller's transaction). */
export async function appendAuditEntry(
  tx: SqlExecutor,
  input: AuditChainEntry,
  now: Date,
): Promise<void> {
  if (tx.dialect === 'postgres')
    await tx.query(
      "SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':toolgate:audit-log'))",
    );
  const [last] = await tx.query<{ seq: number; hash: string }>(
    'SELECT seq, hash FROM admin_audit_log ORDER BY seq DESC LIMIT 1',
  );
  const prevHash = last?.hash ?? GENESIS_HASH;
  const seq = Number(last?.seq ?? 0) + 1;
  const actor = {
    role: input.actor.role,
    subject: input.actor.subject,
    via: input.actor.via,
    ...(input.actor.name === undefined ? {} : { name: input.actor.name }),
  };
  const before = scrubSecrets(input.before);
  const after = scrubSecrets(input.after);
  const at = now.toISOString();
  const hashed = { seq, at, actor, action: input.action, target: input.target, before, after };
  const hash = chainHash(prevHash, hashed);
  await tx.execute(
    `INSERT INTO admin_audit_log (seq, at, actor_role, actor_subject, actor_via, actor_name, action,
       target_type, target_id, before_json, after_json, prev_hash, hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      seq,
      at,
      actor.role,
      actor.subject,
      actor.via,
      actor.name ?? null,
      input.action,
      input.target.type,
      input.target.id,
      before === undefined ? null : JSON.stringify(before),
      after === undefined ? null : JSON.stringify(after),
      prevHash,
      hash,
    ],
  );
}

export function chainHash(prevHash: string, entry: unknown): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(entry)).digest('hex');
}

/** Masks anything secret-shaped (`tgk_…1234`); defence in depth, callers pass masked forms already. */
export function scrubSecrets(value: unknown): unknown {
  if (value === undefined) return undefined;
  let text = JSON.stringify(value);
  if (text === undefined) return undefined;
  for (const pattern of SECRET_PATTERNS)
    text = text.replace(pattern, (secret) =>
      secret.startsWith('tgk_') ? `tgk_…${secret.slice(-4)}` : '…',
    );
  return JSON.parse(text) as unknown;
}
