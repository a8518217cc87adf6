// Usage over time as two server-rendered SVG charts per subscription and tool (docs/decisions.md, D-303): calls per interval (stacked: succeeded, errors, quota refusals) and latency (p50 and
// p95 lines). Each chart has a title and a description naming the totals, and the same numbers follow as a
// table, so nothing is only a picture. Intervals are minutes over the last hour, hours over the last day;
// intervals without calls are drawn empty (latency: a gap). Pure: points in, markup out.
import type { UsagePoint, UsageWindow } from '../usage/store.js';
import { SERIES_STEP_MS, WINDOW_MS } from '../usage/store.js';
import { html, type Html } from './html.js';
import { formatClock, formatMs, formatTime } from './format.js';

export interface UsageChartInput {
  /** Unique on the page (element ids derive from it). */
  readonly id: string;
  /** What the charts show, e.g. `getPayment · invoice-agent (development)`. */
  readonly subject: string;
  readonly window: UsageWindow;
  /** The end of the window. */
  readonly until: Date;
  /** The points of this subscription and tool (UsageStore.series). */
  readonly points: readonly UsagePoint[];
}

/** One interval of the chart: its start and its point (absent: no calls). */
export interface Interval {
  readonly start: number;
  readonly point: UsagePoint | undefined;
}

const W = 640;
const H = 180;
const LEFT = 48;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 150;

/** The intervals of the window, oldest first, each with its point. */
export function intervals(
  window: UsageWindow,
  until: Date,
  points: readonly UsagePoint[],
): Interval[] {
  const step = SERIES_STEP_MS[window];
  const first = Math.floor((until.getTime() - WINDOW_MS[window] + 60_000) / step) * step;
  const last = Math.floor(until.getTime() / step) * step;
  const byStart = new Map(points.map((p) => [Date.parse(p.at), p]));
  const out: Interval[] = [];
  for (let start = first; start <= last; start += step)
    out.push({ start, point: byStart.get(start) });
  return out;
}

/** The smallest of 1, 2, 2.5, 5 × 10^k at or above `value` (at least `floor`). */
export function niceMax(value: number, floor = 1): number {
  const v = Math.max(value, floor);
  const power = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= v) return m * power;
  return 10 * power;
}

const num = (n: number) => String(Math.round(n * 100) / 100);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function axes(slots: readonly Interval[], yMax: number, unit: string): Html {
  const x = (i: number) => LEFT + ((i + 0.5) * (W - LEFT - RIGHT)) / slots.length;
  const last = slots.length - 1;
  const labelled = [0, Math.floor(last / 2), last];
  // The outer labels align with the plot's edges, so none is cut off.
  const anchor = (i: number) => (i === 0 ? 'start' : i === last ? 'end' : 'middle');
  const labelX = (i: number) => (i === 0 ? LEFT : i === last ? W - RIGHT : x(i));
  return html`<g class="axis" aria-hidden="true">
    <line x1="${LEFT}" y1="${BOTTOM}" x2="${W - RIGHT}" y2="${BOTTOM}" />
    <line x1="${LEFT}" y1="${TOP}" x2="${W - RIGHT}" y2="${TOP}" class="grid" />
    <line
      x1="${LEFT}"
      y1="${(TOP + BOTTOM) / 2}"
      x2="${W - RIGHT}"
      y2="${(TOP + BOTTOM) / 2}"
      class="grid"
    />
    <text x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${num(yMax)}${unit}</text>
    <text x="${LEFT - 6}" y="${(TOP + BOTTOM) / 2 + 4}" text-anchor="end"
      >${num(yMax / 2)}${unit}</text
    >
    <text x="${LEFT - 6}" y="${BOTTOM + 4}" text-anchor="end">0</text>
    ${labelled.map((i) => {
      const slot = slots[i];
      return slot === undefined
        ? null
        : html`<text x="${num(labelX(i))}" y="${BOTTOM + 20}" text-anchor="${anchor(i)}">
            ${formatClock(new Date(slot.start))}
          </text>`;
    })}
  </g>`;
}

function callsChart(input: UsageChartInput, slots: readonly Interval[]): Html {
  const totals = { requests: 0, errors: 0, refusals: 0, busiest: 0 };
  for (const { point: p } of slots) {
    if (!p) continue;
    totals.requests += p.requests;
    totals.errors += p.errors;
    totals.refusals += p.quotaRefusals;
    totals.busiest = Math.max(totals.busiest, p.requests + p.quotaRefusals);
  }
  const yMax = niceMax(totals.busiest);
  const slotW = (W - LEFT - RIGHT) / slots.length;
  const barW = Math.max(1, slotW * 0.8);
  const y = (v: number) => BOTTOM - (v / yMax) * (BOTTOM - TOP);
  const id = `${input.id}-calls`;
  const interval = input.window === 'hour' ? 'minute' : 'hour';
  return html`<figure class="chart">
    <svg
      viewBox="0 0 ${W} ${H}"
      role="img"
      aria-labelledby="${id}-title ${id}-desc"
      preserveAspectRatio="xMidYMid meet"
    >
      <title id="${id}-title">Calls per ${interval}: ${input.subject}</title>
      <desc id="${id}-desc">
        ${plural(totals.requests, 'request')}, ${plural(totals.errors, 'error')} and
        ${plural(totals.refusals, 'quota refusal')} in the last ${input.window}; at most
        ${totals.busiest} in one ${interval}.
      </desc>
      ${axes(slots, yMax, '')}
      ${slots.map(({ start, point: p }, i) => {
        if (!p || p.requests + p.quotaRefusals === 0) return null;
        const x = num(LEFT + i * slotW + (slotW - barW) / 2);
        const ok = p.requests - p.errors;
        const stack: [string, number][] = [
          ['ok', ok],
          ['errors', p.errors],
          ['refusals', p.quotaRefusals],
        ];
        let base = 0;
        return html`<g data-at="${new Date(start).toISOString()}">
          <title>
            ${formatClock(new Date(start))}: ${plural(p.requests, 'request')},
            ${plural(p.errors, 'error')}, ${plural(p.quotaRefusals, 'quota refusal')}
          </title>
          ${stack.map(([kind, value]) => {
            if (value === 0) return null;
            const top = y(base + value);
            const height = y(base) - top;
            base += value;
            return html`<rect
              class="bar-${kind}"
              data-value="${value}"
              x="${x}"
              y="${num(top)}"
              width="${num(barW)}"
              height="${num(height)}"
            />`;
          })}
        </g>`;
      })}
    </svg>
    <figcaption class="legend">
      <span class="key key-ok"></span>Succeeded <span class="key key-errors"></span>Errors
      <span class="key key-refusals"></span>Quota refusals
    </figcaption>
  </figure>`;
}

function latencyChart(input: UsageChartInput, slots: readonly Interval[]): Html {
  const values = slots.flatMap(({ point: p }) =>
    p && p.latency.p95Ms !== null ? [p.latency.p95Ms] : [],
  );
  const yMax = niceMax(Math.max(0, ...values), 1);
  const slotW = (W - LEFT - RIGHT) / slots.length;
  const x = (i: number) => LEFT + (i + 0.5) * slotW;
  const y = (v: number) => BOTTOM - (v / yMax) * (BOTTOM - TOP);
  const id = `${input.id}-latency`;
  const interval = input.window === 'hour' ? 'minute' : 'hour';
  /** Polylines of consecutive intervals with a value (a gap where there were no calls). */
  const lines = (pick: (p: UsagePoint) => number | null, kind: string): Html => {
    const runs: string[][] = [];
    let run: string[] = [];
    slots.forEach(({ point: p }, i) => {
      const v = p ? pick(p) : null;
      if (v === null) {
        if (run.length > 0) runs.push(run);
        run = [];
      } else run.push(`${num(x(i))},${num(y(v))}`);
    });
    if (run.length > 0) runs.push(run);
    return html`${runs.map(
      (r) => html`<polyline class="line-${kind}" points="${r.join(' ')}" />`,
    )}${slots.map(({ point: p }, i) => {
      const v = p ? pick(p) : null;
      return v === null
        ? null
        : html`<circle
            class="dot-${kind}"
            data-value="${v}"
            cx="${num(x(i))}"
            cy="${num(y(v))}"
            r="3"
          />`;
    })}`;
  };
  const slowest = values.length === 0 ? null : Math.max(...values);
  return html`<figure class="chart">
    <svg
      viewBox="0 0 ${W} ${H}"
      role="img"
      aria-labelledby="${id}-title ${id}-desc"
      preserveAspectRatio="xMidYMid meet"
    >
      <title id="${id}-title">Latency per ${interval} (p50 and p95): ${input.subject}</title>
      <desc id="${id}-desc">
        ${
          slowest === null
            ? `No timed calls in the last ${input.window}.`
            : `The slowest ${interval}'s p95 was ${formatMs(slowest)}.`
        }
      </desc>
      ${axes(slots, yMax, ' ms')} ${lines((p) => p.latency.p50Ms, 'p50')}
      ${lines((p) => p.latency.p95Ms, 'p95')}
    </svg>
    <figcaption class="legend">
      <span class="key key-p50"></span>p50 <span class="key key-p95"></span>p95
    </figcaption>
  </figure>`;
}

function numbersTable(input: UsageChartInput, slots: readonly Interval[]): Html {
  const rows = slots.filter((s) => s.point !== undefined);
  const first = slots[0];
  return html`<details class="numbers">
    <summary>
      The numbers (${plural(rows.length, input.window === 'hour' ? 'minute' : 'hour')} with calls)
    </summary>
    <table class="stack">
      <caption class="muted">
        ${input.subject}, from ${first ? formatTime(new Date(first.start)) : '—'} to
        ${formatTime(input.until)}
      </caption>
      <thead>
        <tr>
          <th scope="col">${input.window === 'hour' ? 'Minute' : 'Hour'} (UTC)</th>
          <th scope="col">Requests</th>
          <th scope="col">Errors</th>
          <th scope="col">Quota refusals</th>
          <th scope="col">p50</th>
          <th scope="col">p95</th>
          <th scope="col">Average</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map(({ start, point: p }) =>
          p === undefined
            ? null
            : html`<tr>
                <th scope="row" data-label="Time">${formatClock(new Date(start))}</th>
                <td data-label="Requests">${p.requests}</td>
                <td data-label="Errors">${p.errors}</td>
                <td data-label="Quota refusals">${p.quotaRefusals}</td>
                <td data-label="p50">${formatMs(p.latency.p50Ms)}</td>
                <td data-label="p95">${formatMs(p.latency.p95Ms)}</td>
                <td data-label="Average">${formatMs(p.latency.avgMs)}</td>
              </tr>`,
        )}
      </tbody>
    </table>
  </details>`;
}

/** Both charts and the table of their numbers. */
export function usageCharts(input: UsageChartInput): Html {
  const slots = intervals(input.window, input.until, input.points);
  return html`<div class="charts">${callsChart(input, slots)} ${latencyChart(input, slots)}</div>
    ${numbersTable(input, slots)}`;
}
