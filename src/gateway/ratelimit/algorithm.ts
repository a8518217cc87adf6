// Exact sliding-log rate limiting (pure, no I/O).
//
// A key's log holds the timestamps of its admissions that are still inside the window. An
// admission at time `now` is allowed only when fewer than `limit` admissions lie in
// (now - window, now]; hence any span of one window length never contains more than `limit`
// admissions. The log never holds more than `limit` live entries, so it is exact and bounded.
// The log is a ring buffer over a plain array that grows on demand up to `limit` entries, so a
// key seen once costs one slot, not `limit` slots.

export interface SlidingLog {
  /** Ring storage; capacity is `ts.length` and never needs to exceed the limit. */
  ts: number[];
  /** Index of the oldest live entry. */
  start: number;
  /** Number of live entries. */
  size: number;
  /** Newest recorded timestamp (-Infinity when nothing was recorded). */
  last: number;
}

export interface LogWindow {
  readonly log: SlidingLog;
  readonly limit: number;
  readonly windowMs: number;
}

export interface WindowOutcome {
  /** Admissions left after this decision. */
  readonly remaining: number;
  /** Milliseconds until the oldest live entry leaves the window (0 when the log is empty). */
  readonly resetMs: number;
  /** Milliseconds until this window has room again (0 when it has room now). */
  readonly retryAfterMs: number;
}

export interface Verdict {
  readonly allowed: boolean;
  readonly outcomes: readonly WindowOutcome[];
  /** Index of the window that blocks longest, or -1 when allowed. */
  readonly blockingIndex: number;
}

export function createLog(): SlidingLog {
  return { ts: [], start: 0, size: 0, last: Number.NEGATIVE_INFINITY };
}

function at(log: SlidingLog, i: number): number {
  const cap = log.ts.length;
  let idx = log.start + i;
  if (idx >= cap) idx -= cap;
  return log.ts[idx] as number;
}

/** Drops entries that left the window: an entry `t` is live while `t > now - windowMs`. */
export function trim(log: SlidingLog, now: number, windowMs: number): void {
  const cutoff = now - windowMs;
  const cap = log.ts.length;
  while (log.size > 0 && (log.ts[log.start] as number) <= cutoff) {
    log.start = log.start + 1 === cap ? 0 : log.start + 1;
    log.size--;
  }
  if (log.size === 0) {
    log.start = 0;
    if (cap > 8) log.ts = [];
  }
}

/** True when the log holds no live entry at `now` (the key can be forgotten). */
export function isExpired(log: SlidingLog, now: number, windowMs: number): boolean {
  return log.size === 0 || log.last <= now - windowMs;
}

function record(log: SlidingLog, t: number): void {
  // Keep the log ordered even if the clock stepped back: never record before the newest entry.
  const ts = t < log.last ? log.last : t;
  const cap = log.ts.length;
  if (cap === 0) {
    log.ts = [ts]; // exact capacity: most keys (one-off clients) never hold more than one entry
  } else if (log.size < cap) {
    let idx = log.start + log.size;
    if (idx >= cap) idx -= cap;
    log.ts[idx] = ts;
  } else if (log.start === 0) {
    log.ts.push(ts);
  } else {
    log.ts = [...log.ts.slice(log.start), ...log.ts.slice(0, log.start), ts];
    log.start = 0;
  }
  log.size++;
  log.last = ts;
}

function outcome(w: LogWindow, now: number): WindowOutcome {
  const { log, limit, windowMs } = w;
  const remaining = Math.max(0, limit - log.size);
  const resetMs = log.size > 0 ? at(log, 0) + windowMs - now : 0;
  // With `size >= limit`, room appears when entry number (size - limit) from the oldest expires.
  const retryAfterMs = log.size >= limit ? at(log, log.size - limit) + windowMs - now : 0;
  return { remaining, resetMs, retryAfterMs };
}

/**
 * Decides one request against several windows at once, all-or-nothing: it is admitted only when
 * every window has room, and only then is `now` recorded in every window. A refusal records
 * nothing, so refused requests never use up quota. Windows must belong to distinct keys. With
 * `recording` false (a peek) the decision is the same and nothing is recorded either way.
 */
export function decide(windows: readonly LogWindow[], now: number, recording = true): Verdict {
  let allowed = true;
  for (const w of windows) {
    trim(w.log, now, w.windowMs);
    if (w.log.size >= w.limit) allowed = false;
  }
  if (allowed && recording) for (const w of windows) record(w.log, now);
  const outcomes = windows.map((w) => outcome(w, now));
  let blockingIndex = -1;
  if (!allowed) {
    let longest = -1;
    outcomes.forEach((o, i) => {
      if (o.retryAfterMs > 0 && o.retryAfterMs > longest) {
        longest = o.retryAfterMs;
        blockingIndex = i;
      }
    });
  }
  return { allowed, outcomes, blockingIndex };
}
