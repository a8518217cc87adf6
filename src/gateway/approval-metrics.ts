// The approval backlog (governed calls waiting in consent_approvals, issue 25): how many are pending and
// how old the oldest is, per kind (`confirm`: the caller confirms; `approve`: an approver decides). Read at
// scrape time with one grouped query over the (status, created_at) index — pending, unexpired rows only —
// at most once per MIN_INTERVAL_MS, whoever scrapes, and never for longer than QUERY_TIMEOUT_MS; a failed
// or slow query leaves the two gauges without samples rather than failing /metrics. Every replica (and
// every worker) reads the same table, so the cluster aggregate takes the maximum, not the sum.
import { Gauge, type Registry } from 'prom-client';
import type { SqlExecutor } from '../shared/db/types.js';

export const KINDS = ['confirm', 'approve'] as const;
export type ApprovalKind = (typeof KINDS)[number];
const MIN_INTERVAL_MS = 5000;
const QUERY_TIMEOUT_MS = 2000;

export interface BacklogRow {
  readonly kind: string;
  readonly pending: number | string;
  readonly oldest: string | null;
}

export interface Backlog {
  readonly kind: ApprovalKind;
  readonly pending: number;
  /** Seconds since the oldest pending approval was asked for; 0 when none is pending. */
  readonly oldestAgeSeconds: number;
}

/** Pure: one entry per kind (zeros for a kind without pending approvals), from the grouped rows. */
export function backlogOf(rows: readonly BacklogRow[], now: number): Backlog[] {
  return KINDS.map((kind) => {
    const row = rows.find((r) => r.kind === kind);
    const oldest = row?.oldest ? Date.parse(row.oldest) : NaN;
    return {
      kind,
      pending: row ? Number(row.pending) : 0,
      oldestAgeSeconds: Number.isNaN(oldest) ? 0 : Math.max(0, (now - oldest) / 1000),
    };
  });
}

/** The backlog now: one grouped query (times are fixed-length ISO strings, so they compare as text). */
export async function readBacklog(db: SqlExecutor, now: number): Promise<Backlog[]> {
  const rows = await db.query<BacklogRow>(
    `SELECT kind, COUNT(*) AS pending, MIN(created_at) AS oldest FROM consent_approvals
      WHERE status = 'pending' AND expires_at > $1 GROUP BY kind`,
    [new Date(now).toISOString()],
  );
  return backlogOf(rows, now);
}

export interface ApprovalMetrics {
  /** The database the approvals are in (the gateway's). */
  watch(db: SqlExecutor): void;
}

export function createApprovalMetrics(
  registry: Registry,
  clock: () => number = Date.now,
): ApprovalMetrics {
  let db: SqlExecutor | undefined;
  let last: { at: number; backlog: Promise<Backlog[] | null> } | undefined;
  const current = (): Promise<Backlog[] | null> => {
    const now = clock();
    if (db === undefined) return Promise.resolve(null);
    if (last === undefined || now - last.at >= MIN_INTERVAL_MS)
      last = { at: now, backlog: withTimeout(readBacklog(db, now)) };
    return last.backlog;
  };
  new Gauge({
    name: 'toolgate_approvals_pending',
    help: 'Governed calls waiting for a decision (pending, unexpired), by kind',
    labelNames: ['kind'] as const,
    aggregator: 'max',
    registers: [registry],
    async collect() {
      this.reset();
      for (const b of (await current()) ?? []) this.set({ kind: b.kind }, b.pending);
    },
  });
  new Gauge({
    name: 'toolgate_approvals_oldest_pending_age_seconds',
    help: 'Age of the oldest pending, unexpired approval, by kind (0: none pending)',
    labelNames: ['kind'] as const,
    aggregator: 'max',
    registers: [registry],
    async collect() {
      this.reset();
      for (const b of (await current()) ?? []) this.set({ kind: b.kind }, b.oldestAgeSeconds);
    },
  });
  return {
    watch(database) {
      db = database;
    },
  };
}

/** The query's answer, or null when it failed or took longer than QUERY_TIMEOUT_MS. */
function withTimeout(query: Promise<Backlog[]>): Promise<Backlog[] | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), QUERY_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([query.catch(() => null), timeout]).finally(() => clearTimeout(timer));
}
