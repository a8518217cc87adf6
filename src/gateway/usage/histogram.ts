// The latency histogram kept per subscription, tool and minute: ten fixed buckets (upper bounds in ms,
// the last one open), small enough to add up in SQL and to estimate p50/p95 from. Pure.

/** Upper bounds (ms, inclusive) of buckets h0..h8; h9 holds everything slower. */
export const LATENCY_BOUNDS_MS: readonly number[] = [10, 25, 50, 100, 250, 500, 1000, 2500, 10000];
export const BUCKETS = LATENCY_BOUNDS_MS.length + 1;

export function bucketOf(ms: number): number {
  for (let i = 0; i < LATENCY_BOUNDS_MS.length; i++)
    if (ms <= (LATENCY_BOUNDS_MS[i] as number)) return i;
  return LATENCY_BOUNDS_MS.length;
}

/**
 * The q-quantile (0 < q ≤ 1) estimated from bucket counts: linear within the bucket that holds the rank
 * (the open last bucket answers its lower bound). Null when there is nothing to estimate from.
 */
export function quantile(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < buckets.length; i++) {
    const count = buckets[i] as number;
    if (count > 0 && below + count >= rank) {
      const lower = i === 0 ? 0 : (LATENCY_BOUNDS_MS[i - 1] as number);
      const upper = LATENCY_BOUNDS_MS[i];
      if (upper === undefined) return lower;
      return Math.round((lower + ((rank - below) / count) * (upper - lower)) * 10) / 10;
    }
    below += count;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1] ?? null;
}
