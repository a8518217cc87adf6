// The usage table (gateway_usage_minutes): one row per minute, subscription and tool. Replicas add to
// a row with an upsert that sums in SQL, so any number of them can flush into the same minute on SQLite
// and PostgreSQL alike; the query side sums the minutes of a window.
import type { Database, SqlExecutor, SqlValue } from '../../shared/db/types.js';
import { BUCKETS, quantile, type LatencyRange } from './histogram.js';

export interface UsageCounts {
  requests: number;
  quotaRefusals: number;
  errors: number;
  latencyCount: number;
  /** Microseconds (integers add exactly). */
  latencySumUs: number;
  /** Counts per latency bucket (histogram.ts), BUCKETS long. */
  buckets: number[];
  /** Smallest and largest latency observed (µs, integers); null before the first one. */
  latencyMinUs: number | null;
  latencyMaxUs: number | null;
}

export interface UsageRow extends UsageCounts {
  /** Start of the minute, ISO 8601 UTC (`2026-11-25T10:31:00.000Z`). */
  readonly minute: string;
  readonly subscriptionId: string;
  readonly tool: string;
}

export type UsageWindow = 'hour' | 'day';

export const WINDOW_MS: Readonly<Record<UsageWindow, number>> = {
  hour: 3_600_000,
  day: 86_400_000,
};

export interface UsageSummary {
  readonly subscriptionId: string;
  readonly tool: string;
  readonly requests: number;
  readonly quotaRefusals: number;
  readonly errors: number;
  readonly latency: {
    readonly count: number;
    readonly avgMs: number | null;
    readonly p50Ms: number | null;
    readonly p95Ms: number | null;
    /** Smallest and largest observed (null when unknown: no calls, or rows older than the range). */
    readonly minMs: number | null;
    readonly maxMs: number | null;
  };
}

/** One interval of a usage time series: a minute (window hour) or an hour (window day). */
export interface UsagePoint extends UsageSummary {
  /** Start of the interval, ISO 8601 UTC. */
  readonly at: string;
}

/** The interval of a window's time series. */
export const SERIES_STEP_MS: Readonly<Record<UsageWindow, number>> = {
  hour: 60_000,
  day: 3_600_000,
};

export interface UsageQuery {
  readonly window: UsageWindow;
  readonly subscriptionId?: string | undefined;
  readonly tool?: string | undefined;
  /** The end of the window (default now). */
  readonly now?: Date | undefined;
}

const H = Array.from({ length: BUCKETS }, (_, i) => `h${i}`);
const COUNTERS = [
  'requests',
  'quota_refusals',
  'errors',
  'latency_count',
  'latency_sum_us',
  ...H,
] as const;

// The range columns keep the smaller (larger) of the stored and the added value; a NULL on either side
// (no latency yet) leaves the other. CASE rather than MIN()/LEAST(): the same text on both databases.
const keep = (column: string, op: '<' | '>') =>
  `  ${column} = CASE WHEN gateway_usage_minutes.${column} IS NULL OR excluded.${column} ${op} gateway_usage_minutes.${column} THEN excluded.${column} ELSE gateway_usage_minutes.${column} END`;

const UPSERT = `INSERT INTO gateway_usage_minutes (minute, subscription_id, tool, ${COUNTERS.join(', ')}, latency_min_us, latency_max_us)
VALUES (${Array.from({ length: COUNTERS.length + 5 }, (_, i) => `$${i + 1}`).join(', ')})
ON CONFLICT (minute, subscription_id, tool) DO UPDATE SET
${COUNTERS.map((c) => `  ${c} = gateway_usage_minutes.${c} + excluded.${c}`).join(',\n')},
${keep('latency_min_us', '<')},
${keep('latency_max_us', '>')}`;

/** Sums of a group of minute rows; `unranged` counts rows with latencies but no range (recorded before v8). */
const AGGREGATES = `${COUNTERS.map((c) => `SUM(${c}) AS ${c}`).join(', ')},
  MIN(latency_min_us) AS latency_min_us, MAX(latency_max_us) AS latency_max_us,
  SUM(CASE WHEN latency_count > 0 AND latency_min_us IS NULL THEN 1 ELSE 0 END) AS unranged`;

export class UsageStore {
  constructor(private readonly db: Database) {}

  /** Adds the rows to the stored minutes, in one transaction. */
  async add(rows: readonly UsageRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const row of rows) await tx.execute(UPSERT, params(row));
    });
  }

  /** Deletes the minutes before `cutoff`; returns how many rows went. */
  async prune(cutoff: Date, tx: SqlExecutor = this.db): Promise<number> {
    return tx.execute('DELETE FROM gateway_usage_minutes WHERE minute < $1', [
      cutoff.toISOString(),
    ]);
  }

  /** Per subscription and tool over the last hour or day, ordered by subscription then tool. */
  async summarise(query: UsageQuery): Promise<UsageSummary[]> {
    const { where, values } = filter(query);
    const rows = await this.db.query<Record<string, string | number | null>>(
      `SELECT subscription_id, tool, ${AGGREGATES}
       FROM gateway_usage_minutes WHERE ${where}
       GROUP BY subscription_id, tool ORDER BY subscription_id, tool`,
      values,
    );
    return rows.map(summaryOf);
  }

  /**
   * The same per subscription and tool, per minute (window hour) or per hour (window day): only the
   * intervals with rows, ordered by subscription, tool and time.
   */
  async series(query: UsageQuery): Promise<UsagePoint[]> {
    const { where, values } = filter(query);
    // ISO text: the first 13 characters name the hour (`2026-11-25T10`).
    const interval = query.window === 'day' ? 'substr(minute, 1, 13)' : 'minute';
    const rows = await this.db.query<Record<string, string | number | null>>(
      `SELECT subscription_id, tool, ${interval} AS at, ${AGGREGATES}
       FROM gateway_usage_minutes WHERE ${where}
       GROUP BY subscription_id, tool, ${interval} ORDER BY subscription_id, tool, at`,
      values,
    );
    return rows.map((r) => {
      const at = String(r.at);
      return { ...summaryOf(r), at: at.length === 13 ? `${at}:00:00.000Z` : at };
    });
  }
}

function filter(query: UsageQuery): { where: string; values: SqlValue[] } {
  const now = query.now ?? new Date();
  const since = minuteOf(now.getTime() - WINDOW_MS[query.window] + 60_000);
  const where = ['minute >= $1'];
  const values: SqlValue[] = [since];
  if (query.subscriptionId !== undefined) {
    values.push(query.subscriptionId);
    where.push(`subscription_id = $${values.length}`);
  }
  if (query.tool !== undefined) {
    values.push(query.tool);
    where.push(`tool = $${values.length}`);
  }
  return { where: where.join(' AND '), values };
}

const nullableNumber = (v: string | number | null | undefined) =>
  v === null || v === undefined ? null : Number(v);

function summaryOf(r: Record<string, string | number | null>): UsageSummary {
  const buckets = H.map((h) => Number(r[h] ?? 0));
  const count = Number(r.latency_count ?? 0);
  const sumUs = Number(r.latency_sum_us ?? 0);
  const minUs = nullableNumber(r.latency_min_us);
  const maxUs = nullableNumber(r.latency_max_us);
  // The range bounds the estimate only when every row with latencies recorded it.
  const range: LatencyRange | null =
    minUs !== null && maxUs !== null && Number(r.unranged ?? 0) === 0
      ? { minMs: minUs / 1000, maxMs: maxUs / 1000 }
      : null;
  return {
    subscriptionId: String(r.subscription_id),
    tool: String(r.tool),
    requests: Number(r.requests ?? 0),
    quotaRefusals: Number(r.quota_refusals ?? 0),
    errors: Number(r.errors ?? 0),
    latency: {
      count,
      avgMs: count === 0 ? null : Math.round(sumUs / count / 100) / 10,
      p50Ms: quantile(buckets, 0.5, range),
      p95Ms: quantile(buckets, 0.95, range),
      minMs: range?.minMs ?? null,
      maxMs: range?.maxMs ?? null,
    },
  };
}

let lastMinute = NaN;
let lastMinuteText = '';

/**
 * The start of the minute holding `ms`, as stored. Called on every tools/call (usage counting): the text
 * of the latest minute asked for is kept, so a call in the same minute formats no Date.
 */
export function minuteOf(ms: number): string {
  const minute = Math.floor(ms / 60_000);
  if (minute !== lastMinute) {
    lastMinute = minute;
    lastMinuteText = new Date(minute * 60_000).toISOString();
  }
  return lastMinuteText;
}

function params(row: UsageRow): SqlValue[] {
  return [
    row.minute,
    row.subscriptionId,
    row.tool,
    row.requests,
    row.quotaRefusals,
    row.errors,
    row.latencyCount,
    Math.round(row.latencySumUs),
    ...Array.from({ length: BUCKETS }, (_, i) => row.buckets[i] ?? 0),
    row.latencyMinUs,
    row.latencyMaxUs,
  ];
}
