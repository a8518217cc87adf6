// The audit log: append-only, each entry chained to the previous one by
// hash = sha256(previous hash + canonical JSON of the entry). Appends are serialised (PostgreSQL: a
// transaction-scoped advisory lock; SQLite: the BEGIN IMMEDIATE write lock every transaction takes), so
// concurrent appends can never fork the chain. Secrets never enter it: subscription keys and bearer
// tokens that slip into `before`/`after` are masked before hashing.
import { createHash } from 'node:crypto';
import type { Database, SqlExecutor, SqlValue } from '../../shared/db/types.js';
import type { Actor, ActorCredential, ActorRole } from './actor.js';
import type { AuditEntryInput, AuditSink } from './audit-sink.js';
import { canonicalJson } from '../../shared/canonical-json.js';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntry {
  readonly seq: number;
  readonly at: string;
  readonly actor: Actor;
  readonly action: string;
  readonly target: { readonly type: string; readonly id: string };
  readonly before: unknown;
  readonly after: unknown;
  readonly prevHash: string;
  readonly hash: string;
}

export interface AuditQuery {
  readonly actor?: string | undefined;
  readonly action?: string | undefined;
  /** `type:id`, or just an id. */
  readonly target?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly limit?: number | undefined;
}

export interface AuditVerification {
  readonly ok: boolean;
  readonly entries: number;
  /** Sequence number of the first entry whose hash or link does not hold. */
  readonly brokenAt?: number;
}

interface AuditRow {
  seq: number;
  at: string;
  actor_role: ActorRole;
  actor_subject: string;
  actor_via: ActorCredential;
  actor_name: string | null;
  action: string;
  target_type: string;
  target_id: string;
  before_json: string | null;
  after_json: string | null;
  prev_hash: string;
  hash: string;
}

/** Subscription keys and anything shaped like a bearer token (JWT or admin token). */
const SECRET_PATTERNS: readonly RegExp[] = [
  /tgk_[0-9A-Za-z]{30}/g,
  /tga_[0-9A-Za-z_-]{20,}/g,
  /eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]*/g,
];

export class AuditLog implements AuditSink {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async append(entry: AuditEntryInput, tx?: SqlExecutor): Promise<void> {
    if (tx === undefined) {
      await this.db.transaction((own) => this.appendIn(own, entry));
      return;
    }
    await this.appendIn(tx, entry);
  }

  async query(query: AuditQuery = {}): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: SqlValue[] = [];
    const add = (clause: string, value: SqlValue) => {
      params.push(value);
      where.push(clause.replace('?', `$${params.length}`));
    };
    if (query.actor !== undefined) add('actor_subject = ?', query.actor);
    if (query.action !== undefined) {
      if (query.action.endsWith('*')) add('action LIKE ?', `${query.action.slice(0, -1)}%`);
      else add('action = ?', query.action);
    }
    if (query.target !== undefined) {
      const colon = query.target.indexOf(':');
      if (colon > 0) {
        add('target_type = ?', query.target.slice(0, colon));
        add('target_id = ?', query.target.slice(colon + 1));
      } else add('target_id = ?', query.target);
    }
    if (query.since !== undefined) add('at >= ?', query.since);
    if (query.until !== undefined) add('at < ?', query.until);
    const limit = Math.min(Math.max(query.limit ?? 100, 1), 1000);
    const rows = await this.db.query<AuditRow>(
      `SELECT * FROM admin_audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ${limit}`,
      params,
    );
    return rows.map(toEntry);
  }

  /** Every entry in chain order, one JSON object per line, read in pages (bounded memory). */
  async *exportJsonLines(pageSize = 500): AsyncGenerator<string> {
    for await (const entry of this.walk(pageSize)) yield `${JSON.stringify(entry)}\n`;
  }

  /** Recomputes every hash and link from the first entry on. */
  async verify(): Promise<AuditVerification> {
    let previous = GENESIS_HASH;
    let expectedSeq = 1;
    let entries = 0;
    for await (const entry of this.walk(500)) {
      entries += 1;
      if (
        entry.seq !== expectedSeq ||
        entry.prevHash !== previous ||
        entry.hash !== chainHash(previous, hashedPart(entry))
      )
        return { ok: false, entries, brokenAt: entry.seq };
      previous = entry.hash;
      expectedSeq += 1;
    }
    return { ok: true, entries };
  }

  private async *walk(pageSize: number): AsyncGenerator<AuditEntry> {
    let after = 0;
    for (;;) {
      const rows = await this.db.query<AuditRow>(
        'SELECT * FROM admin_audit_log WHERE seq > $1 ORDER BY seq LIMIT $2',
        [after, pageSize],
      );
      for (const row of rows) yield toEntry(row);
      const last = rows[rows.length - 1];
      if (last === undefined || rows.length < pageSize) return;
      after = Number(last.seq);
    }
  }

  private async appendIn(tx: SqlExecutor, input: AuditEntryInput): Promise<void> {
    if (tx.dialect === 'postgres')
      await tx.query(
        "SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':toolgate:audit-log'))",
      );
    const [last] = await tx.query<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM admin_audit_log ORDER BY seq DESC LIMIT 1',
    );
    const prevHash = last?.hash ?? GENESIS_HASH;
    const seq = Number(last?.seq ?? 0) + 1;
    const actor: Actor = {
      role: input.actor.role,
      subject: input.actor.subject,
      via: input.actor.via,
      ...(input.actor.name === undefined ? {} : { name: input.actor.name }),
    };
    const before = scrub(input.before);
    const after = scrub(input.after);
    const at = this.clock().toISOString();
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
}

function chainHash(prevHash: string, entry: unknown): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(entry)).digest('hex');
}

function hashedPart(entry: AuditEntry): unknown {
  return {
    seq: entry.seq,
    at: entry.at,
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    before: entry.before,
    after: entry.after,
  };
}

/** Masks anything secret-shaped (`tgk_…1234`); defence in depth, callers pass masked forms already. */
function scrub(value: unknown): unknown {
  if (value === undefined) return undefined;
  let text = JSON.stringify(value);
  if (text === undefined) return undefined;
  for (const pattern of SECRET_PATTERNS)
    text = text.replace(pattern, (secret) =>
      secret.startsWith('tgk_') ? `tgk_…${secret.slice(-4)}` : '…',
    );
  return JSON.parse(text) as unknown;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    seq: Number(row.seq),
    at: row.at,
    actor: {
      role: row.actor_role,
      subject: row.actor_subject,
      via: row.actor_via,
      ...(row.actor_name === null ? {} : { name: row.actor_name }),
    },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    before: row.before_json === null ? undefined : (JSON.parse(row.before_json) as unknown),
    after: row.after_json === null ? undefined : (JSON.parse(row.after_json) as unknown),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
