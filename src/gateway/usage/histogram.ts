// The latency histogram kept per subscription, tool and minute: ten fixed buckets (upper bounds in ms,
// the last one open), small enough to add up in SQL and to estimate p50/p95 from, plus the smallest and
// largest latency observed, which bound the estimate (docs/decisions.md, D-302).
// Pure.

/** Upper bounds (ms, inclusive) of buckets h0..h8; h9 holds everything slower. */
export const LATENCY_BOUNDS_MS: readonly number[] = [10, 25, 50, 100, 250, 500, 1000, 2500, 10000];
export const BUCKETS = LATENCY_BOUNDS_MS.length + 1;

export function bucketOf(ms: number): number {
  for (let i = 0; i < LATENCY_BOUNDS_MS.length; i++)
    if (ms <= (LATENCY_BOUNDS_MS[i] as number)) return i;
  return LATENCY_BOUNDS_MS.length;
}

/** The smallest and largest latency observed (ms) among the counts of a histogram. */
export interface LatencyRange {
  readonly minMs: number;
  readonly maxMs: number;
}

/**
 * The q-quantile (0 < q ≤ 1) estimated from bucket counts: linear within the bucket that holds the rank.
 * With the observed range, a bucket's edges are narrowed to it (the first non-empty bucket starts at the
 * minimum, the last ends at the maximum, the open bucket too), so the estimate never falls outside
 * [min, max] and a single observation answers itself. Without it (rows recorded before the range was
 * kept), the bucket bounds are used and the open bucket answers its lower bound. Rounded to 0.1 ms.
 * Null when there is nothing to estimate from.
 */
export function quantile(
  buckets: readonly number[],
  q: number,
  range?: LatencyRange | null,
): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  let estimate: number | undefined;
  for (let i = 0; i < buckets.length && estimate === undefined; i++) {
    const count = buckets[i] as number;
    if (count > 0 && below + count >= rank) {
      let lower = i === 0 ? 0 : (LATENCY_BOUNDS_MS[i - 1] as number);
      let upper = LATENCY_BOUNDS_MS[i];
      if (range) {
        lower = Math.min(Math.max(lower, range.minMs), range.maxMs);
        upper = Math.max(Math.min(upper ?? range.maxMs, range.maxMs), lower);
      }
      estimate = upper === undefined ? lower : lower + ((rank - below) / count) * (upper - lower);
    }
    below += count;
  }
  estimate ??= range ? range.maxMs : (LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1] as number);
  const rounded = Math.round(estimate * 10) / 10;
  // Rounding must not step outside the observed range either.
  return range ? Math.min(Math.max(rounded, range.minMs), range.maxMs) : rounded;
}
