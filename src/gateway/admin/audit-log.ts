// The audit log: append-only, each entry chained to the previous one by
// hash = sha256(previous hash + canonical JSON of the entry). The chain is written by
// storage/audit-chain.ts (shared with the data plane's evidence of governed calls); this module appends
// the admin plane's entries, queries, exports and verifies it.
import type { Database, SqlExecutor, SqlValue } from '../../shared/db/types.js';
import type { Actor, ActorCredential, ActorRole } from './actor.js';
import type { AuditEntryInput, AuditSink } from './audit-sink.js';
import { GENESIS_HASH, appendAuditEntry, chainHash } from '../storage/audit-chain.js';

export { GENESIS_HASH };

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
  /**
   * A governed call's id (a UUID): the entries about it, i.e. with the target `call:<id>` or naming it as
   * `callId` (the approval's entries) or `approvalCallId` (the retry that redeemed its receipt, up to the
   * backend's answer), oldest first: one call's whole story.
   */
  readonly call?: string | undefined;
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
    if (query.call !== undefined) {
      params.push(query.call, `%"callId":"${query.call}"%`, `%"approvalCallId":"${query.call}"%`);
      where.push(
        `((target_type = 'call' AND target_id = $${params.length - 2}) OR after_json LIKE $${params.length - 1} OR after_json LIKE $${params.length})`,
      );
    }
    if (query.since !== undefined) add('at >= ?', query.since);
    if (query.until !== undefined) add('at < ?', query.until);
    const limit = Math.min(Math.max(query.limit ?? 100, 1), 1000);
    const rows = await this.db.query<AuditRow>(
      `SELECT * FROM admin_audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq ${query.call === undefined ? 'DESC' : 'ASC'} LIMIT ${limit}`,
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
    await appendAuditEntry(tx, input, this.clock());
  }
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
