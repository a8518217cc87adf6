// Figures of the failure scenario: requests and errors per fault window, the over-quota user's admitted
// counts, and the table the run prints (copied into the closing note of issue 29).
import type { Sample } from './load.js';

export interface FaultWindow {
  readonly name: string;
  readonly start: number;
  end: number;
  note: string;
}

export interface QuotaFigures {
  readonly attempts: number;
  readonly admitted: number;
  /** Refused with 429 before the Redis fault (the user did reach its quota). */
  readonly limitedBeforeOutage: number;
  /** The most admitted in any 60 s window that ends before the Redis fault. */
  readonly beforeOutage: number;
  /** The most admitted in any 60 s window of the run. */
  readonly maxWindow: number;
}

const WINDOW_MS = 60_000;

/** A request belongs to a fault window when it was in progress at any moment of it. */
export function overlaps(sample: Sample, window: FaultWindow): boolean {
  return sample.sentAt <= window.end && sample.sentAt + sample.ms >= window.start;
}

/**
 * The most admissions certainly inside one 60 s window: for each window [t, t + 60 s), t a send time,
 * the requests sent at or after t and answered before t + 60 s. The gateway decided each one somewhere
 * between sending and answer, so this never counts more than the limiter admitted in that window (a
 * count by send time alone would, by the answer latency, on a loaded machine).
 */
function maxIn60s(admitted: readonly Sample[]): number {
  const sorted = [...admitted].sort((a, b) => a.sentAt - b.sentAt);
  let best = 0;
  for (let i = 0; i < sorted.length; i++) {
    const from = sorted[i]?.sentAt ?? 0;
    let count = 0;
    for (let j = i; j < sorted.length; j++) {
      const sample = sorted[j];
      if (!sample || sample.sentAt >= from + WINDOW_MS) break;
      if (sample.sentAt + sample.ms < from + WINDOW_MS) count++;
    }
    best = Math.max(best, count);
  }
  return best;
}

export function quotaFigures(
  samples: readonly Sample[],
  redisFault: { readonly start: number },
): QuotaFigures {
  const admitted = samples.filter((s) => s.outcome === 'ok');
  return {
    attempts: samples.length,
    limitedBeforeOutage: samples.filter(
      (s) => s.outcome === 'limited' && s.sentAt < redisFault.start,
    ).length,
    admitted: admitted.length,
    beforeOutage: maxIn60s(admitted.filter((s) => s.sentAt + s.ms < redisFault.start)),
    maxWindow: maxIn60s(admitted),
  };
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function printTable(
  samples: readonly Sample[],
  windows: readonly FaultWindow[],
  checks: readonly (readonly [string, boolean, string])[],
  quota: QuotaFigures,
): void {
  const lines: string[] = [];
  const row = (cells: string[], widths: number[]) =>
    lines.push(`| ${cells.map((c, i) => pad(c, widths[i] ?? 0)).join(' | ')} |`);
  const widths = [30, 8, 9, 7, 44];
  lines.push('', '## Failure scenario (test/deploy/failover.scenario.ts)', '');
  row(['event', 'window', 'requests', 'errors', 'errors by kind / note'], widths);
  row(
    widths.map((w) => '-'.repeat(w)),
    widths,
  );
  const inside = new Set<Sample>();
  for (const window of windows) {
    const during = samples.filter((s) => overlaps(s, window));
    during.forEach((s) => inside.add(s));
    const errors = during.filter((s) => s.outcome === 'error');
    const kinds = new Map<string, number>();
    for (const e of errors) kinds.set(e.detail ?? '?', (kinds.get(e.detail ?? '?') ?? 0) + 1);
    const detail = [...kinds].map(([k, n]) => `${n}× ${k.slice(0, 160)}`).join('; ');
    if (process.env.FAILOVER_VERBOSE) for (const e of errors) console.log(e);
    row(
      [
        window.name,
        `${((window.end - window.start) / 1000).toFixed(1)} s`,
        String(during.length),
        String(errors.length),
        [detail, window.note].filter(Boolean).join('; ') || '—',
      ],
      widths,
    );
  }
  const outside = samples.filter((s) => !inside.has(s));
  const outsideErrors = outside.filter((s) => s.outcome === 'error');
  row(
    [
      'outside the fault windows',
      '',
      String(outside.length),
      String(outsideErrors.length),
      outsideErrors
        .slice(0, 3)
        .map((e) => `${e.method}: ${e.detail ?? '?'}`)
        .join('; '),
    ],
    widths,
  );
  row(
    [
      'whole run',
      '',
      String(samples.length),
      String(samples.filter((s) => s.outcome === 'error').length),
      '',
    ],
    widths,
  );
  lines.push(
    '',
    `Over-quota user: ${quota.attempts} pings, ${quota.admitted} admitted, ${quota.limitedBeforeOutage} refused (429) ` +
      `before the Redis fault; most admitted in a 60 s window: ` +
      `${quota.beforeOutage} before the Redis fault, ${quota.maxWindow} over the whole run.`,
    '',
  );
  const checkWidths = [58, 6, 30];
  row(['assertion', 'result', 'value'], checkWidths);
  row(
    checkWidths.map((w) => '-'.repeat(w)),
    checkWidths,
  );
  for (const [name, ok, value] of checks) row([name, ok ? 'pass' : 'FAIL', value], checkWidths);
  console.log(lines.join('\n'));
}
