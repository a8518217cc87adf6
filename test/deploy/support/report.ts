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

/** The most samples in any [t, t + 60 s) window, t a sample's send time. */
function maxIn60s(times: readonly number[]): number {
  let best = 0;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while ((times[last] ?? 0) - (times[first] ?? 0) >= WINDOW_MS) first++;
    best = Math.max(best, last - first + 1);
  }
  return best;
}

export function quotaFigures(
  samples: readonly Sample[],
  redisFault: { readonly start: number },
): QuotaFigures {
  const admittedAt = samples
    .filter((s) => s.outcome === 'ok')
    .map((s) => s.sentAt)
    .sort((a, b) => a - b);
  return {
    attempts: samples.length,
    limitedBeforeOutage: samples.filter((s) => s.outcome === 'limited' && s.sentAt < redisFault.start)
      .length,
    admitted: admittedAt.length,
    beforeOutage: maxIn60s(admittedAt.filter((t) => t < redisFault.start)),
    maxWindow: maxIn60s(admittedAt),
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
  row(widths.map((w) => '-'.repeat(w)), widths);
  const inside = new Set<Sample>();
  for (const window of windows) {
    const during = samples.filter((s) => s.sentAt >= window.start && s.sentAt <= window.end);
    during.forEach((s) => inside.add(s));
    const errors = during.filter((s) => s.outcome === 'error');
    const kinds = new Map<string, number>();
    for (const e of errors) kinds.set(e.detail ?? '?', (kinds.get(e.detail ?? '?') ?? 0) + 1);
    const detail = [...kinds].map(([k, n]) => `${n}× ${k}`).join('; ');
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
    ['whole run', '', String(samples.length), String(samples.filter((s) => s.outcome === 'error').length), ''],
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
  row(checkWidths.map((w) => '-'.repeat(w)), checkWidths);
  for (const [name, ok, value] of checks) row([name, ok ? 'pass' : 'FAIL', value], checkWidths);
  console.log(lines.join('\n'));
}
