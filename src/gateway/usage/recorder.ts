// Usage as the gateway sees it: every tools/call outcome and every quota refusal is counted in memory
// (a map lookup and a few additions, no I/O on the request path) per minute, subscription and tool, and
// flushed every `gateway.usage.flushMs` and at shutdown by adding to the stored minute rows. A failed
// flush keeps its counts for the next one; counts not yet flushed are lost if the process is killed
// (SIGKILL, a crash): at most one interval's worth. Rows older than the retention are pruned on a flush,
// at most once an hour. The MCP endpoint tells it of each tools/call (mcp/endpoint.ts): the one place
// usage is recorded.
import type { UsageStore, UsageRow } from './store.js';
import { minuteOf } from './store.js';
import { BUCKETS, bucketOf } from './histogram.js';

export const RETENTION_MS = 8 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/** Distinct (minute, subscription, tool) rows held between flushes; beyond it events are dropped. */
const MAX_PENDING_ROWS = 50_000;

export type CallOutcome = 'ok' | 'error';

export interface UsageEvents {
  /** A tools/call of a catalogue tool finished (or was refused after the tool was found). */
  call(subscriptionId: string, tool: string, outcome: CallOutcome, latencyMs: number): void;
  /** A tools/call refused by a quota before it reached the tool. */
  quotaRefused(subscriptionId: string, tool: string): void;
}

export interface UsageRecorderOptions {
  readonly store: UsageStore;
  /**
   * Whether a name is a tool of the catalogue being served: only those are counted (a client may send any
   * name in a tools/call a quota refuses), so the usage table stays bounded by the catalogue. Default: all.
   */
  readonly isTool?: (name: string) => boolean;
  readonly now?: () => number;
  /** Told about a failed flush (its counts are kept). */
  readonly onError?: (error: unknown) => void;
}

export class UsageRecorder implements UsageEvents {
  private pending = new Map<string, UsageRow>();
  private lastPrune = Number.NEGATIVE_INFINITY;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  /** Events dropped because too many distinct rows were pending (reported in the log by the owner). */
  dropped = 0;

  constructor(private readonly options: UsageRecorderOptions) {
    this.now = options.now ?? Date.now;
  }

  call(subscriptionId: string, tool: string, outcome: CallOutcome, latencyMs: number): void {
    const row = this.row(subscriptionId, tool);
    if (!row) return;
    row.requests++;
    if (outcome === 'error') row.errors++;
    row.latencyCount++;
    const us = Math.round(Math.max(0, latencyMs) * 1000);
    row.latencySumUs += us;
    if (row.latencyMinUs === null || us < row.latencyMinUs) row.latencyMinUs = us;
    if (row.latencyMaxUs === null || us > row.latencyMaxUs) row.latencyMaxUs = us;
    const bucket = bucketOf(latencyMs);
    row.buckets[bucket] = (row.buckets[bucket] ?? 0) + 1;
  }

  quotaRefused(subscriptionId: string, tool: string): void {
    const row = this.row(subscriptionId, tool);
    if (row) row.quotaRefusals++;
  }

  /** Flushes every `ms` (the timer does not keep the process alive). */
  start(ms: number): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => undefined), ms);
    this.timer.unref();
  }

  /** Stops the timer and flushes what is left. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush().catch(() => undefined);
  }

  /** Adds the pending counts to the store (one flush at a time). */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    const rows = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.options.store.add(rows);
      const now = this.now();
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now;
        await this.options.store.prune(new Date(now - RETENTION_MS));
      }
    } catch (error) {
      // Put the counts back (added to anything recorded meanwhile) for the next flush.
      for (const row of rows) this.merge(row);
      this.options.onError?.(error);
      throw error;
    }
  }

  private row(subscriptionId: string, tool: string): UsageRow | undefined {
    if (this.options.isTool?.(tool) === false) return undefined;
    const minute = minuteOf(this.now());
    const key = `${minute}\u0000${subscriptionId}\u0000${tool}`;
    let row = this.pending.get(key);
    if (!row) {
      if (this.pending.size >= MAX_PENDING_ROWS) {
        this.dropped++;
        return undefined;
      }
      row = emptyRow(minute, subscriptionId, tool);
      this.pending.set(key, row);
    }
    return row;
  }

  private merge(from: UsageRow): void {
    const key = `${from.minute}\u0000${from.subscriptionId}\u0000${from.tool}`;
    const row = this.pending.get(key);
    if (!row) {
      this.pending.set(key, from);
      return;
    }
    row.requests += from.requests;
    row.quotaRefusals += from.quotaRefusals;
    row.errors += from.errors;
    row.latencyCount += from.latencyCount;
    row.latencySumUs += from.latencySumUs;
    for (let i = 0; i < BUCKETS; i++)
      row.buckets[i] = (row.buckets[i] ?? 0) + (from.buckets[i] ?? 0);
    row.latencyMinUs = smaller(row.latencyMinUs, from.latencyMinUs);
    row.latencyMaxUs = larger(row.latencyMaxUs, from.latencyMaxUs);
  }
}

function emptyRow(minute: string, subscriptionId: string, tool: string): UsageRow {
  return {
    minute,
    subscriptionId,
    tool,
    requests: 0,
    quotaRefusals: 0,
    errors: 0,
    latencyCount: 0,
    latencySumUs: 0,
    buckets: new Array<number>(BUCKETS).fill(0),
    latencyMinUs: null,
    latencyMaxUs: null,
  };
}

const smaller = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);
const larger = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);
