// Issue 27, "Usage with a chart per subscription and tool (requests, refusals, errors, p50/p95 latency over
// time), rendered server-side as SVG": the chart of known data carries the right numbers (bars, points,
// description and the table of numbers), intervals without calls stay empty, and it is accessible (a
// title and a description tied to the image). Also the audit log's difference and the time format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UsagePoint } from '../../../src/gateway/usage/store.js';
import { intervals, niceMax, usageCharts } from '../../../src/gateway/portal/usage-chart.js';
import { auditDiff } from '../../../src/gateway/portal/audit-diff.js';
import { formatTime, securityClassLabel } from '../../../src/gateway/portal/format.js';

function point(
  at: string,
  counts: Partial<UsagePoint> & { p50?: number; p95?: number },
): UsagePoint {
  return {
    at,
    subscriptionId: 'sub_a',
    tool: 'getPayment',
    requests: counts.requests ?? 0,
    quotaRefusals: counts.quotaRefusals ?? 0,
    errors: counts.errors ?? 0,
    latency: {
      count: counts.requests ?? 0,
      avgMs: counts.p50 ?? null,
      p50Ms: counts.p50 ?? null,
      p95Ms: counts.p95 ?? null,
      minMs: counts.p50 ?? null,
      maxMs: counts.p95 ?? null,
    },
  };
}

const until = new Date('2026-11-26T03:37:20.000Z');
const points = [
  point('2026-11-26T03:10:00.000Z', { requests: 4, errors: 1, quotaRefusals: 2, p50: 12, p95: 40 }),
  point('2026-11-26T03:37:00.000Z', { requests: 1, p50: 56, p95: 56 }),
];

const attrs = (markup: string, element: string, cls: string) =>
  [...markup.matchAll(new RegExp(`<${element}\\s+class="${cls}"([^>]*)>`, 'g'))].map((m) => {
    const out: Record<string, string> = {};
    for (const a of (m[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g))
      out[a[1] as string] = a[2] as string;
    return out;
  });

test('intervals: a minute each over the last hour, the newest last, points in their minute', () => {
  const slots = intervals('hour', until, points);
  assert.equal(slots.length, 60);
  assert.equal(new Date(slots[59]?.start ?? 0).toISOString(), '2026-11-26T03:37:00.000Z');
  assert.equal(new Date(slots[0]?.start ?? 0).toISOString(), '2026-11-26T02:38:00.000Z');
  assert.equal(slots.filter((s) => s.point).length, 2);
  assert.equal(intervals('day', until, []).length, 25, 'hours, the first one partly in the window');
});

test('niceMax rounds up to 1, 2, 2.5 or 5 × 10^k', () => {
  assert.equal(niceMax(0), 1);
  assert.equal(niceMax(6), 10);
  assert.equal(niceMax(56), 100);
  assert.equal(niceMax(41), 50);
  assert.equal(niceMax(2.2), 2.5);
});

test('the calls chart stacks succeeded, errors and quota refusals with the known counts', () => {
  const markup = usageCharts({
    id: 'u0',
    subject: 'getPayment · agent (development)',
    window: 'hour',
    until,
    points,
  }).toString();
  const ok = attrs(markup, 'rect', 'bar-ok');
  const errors = attrs(markup, 'rect', 'bar-errors');
  const refusals = attrs(markup, 'rect', 'bar-refusals');
  assert.deepEqual(
    ok.map((r) => r['data-value']),
    ['3', '1'],
  );
  assert.deepEqual(
    errors.map((r) => r['data-value']),
    ['1'],
  );
  assert.deepEqual(
    refusals.map((r) => r['data-value']),
    ['2'],
  );
  // The busiest minute has 4 requests + 2 refusals = 6 → the axis goes to 10; the plot is 140 units tall.
  assert.match(markup, /text-anchor="end">10<\/text>/);
  const height = (r: Record<string, string> | undefined) => Number(r?.height);
  assert.equal(height(ok[0]), 42, '3 of 10 × 140');
  assert.equal(height(errors[0]), 14);
  assert.equal(height(refusals[0]), 28);
  // Stacked: each segment starts where the one below ends.
  assert.equal(Number(ok[0]?.y), Number(errors[0]?.y) + height(errors[0]));
  assert.equal(Number(errors[0]?.y), Number(refusals[0]?.y) + height(refusals[0]));
  assert.match(
    markup,
    /<desc id="u0-calls-desc">\s*5 requests, 1 error and\s+2 quota refusals in the last hour; at most\s+6 in one minute\./,
  );
});

test('the latency chart draws p50 and p95 per minute, with a gap where there were no calls', () => {
  const markup = usageCharts({ id: 'u0', subject: 's', window: 'hour', until, points }).toString();
  assert.deepEqual(
    attrs(markup, 'circle', 'dot-p50').map((c) => c['data-value']),
    ['12', '56'],
  );
  assert.deepEqual(
    attrs(markup, 'circle', 'dot-p95').map((c) => c['data-value']),
    ['40', '56'],
  );
  // Two separate minutes: two one-point lines each, not one line across the empty minutes between.
  assert.equal(attrs(markup, 'polyline', 'line-p50').length, 2);
  assert.match(markup, /The slowest minute&#39;s p95 was 56\.0 ms\./);
  assert.match(markup, /text-anchor="end">100 ms<\/text>/);
});

test('the charts are images with a title and description; the numbers follow as a table', () => {
  const markup = usageCharts({
    id: 'u0',
    subject: 'getPayment · agent (development)',
    window: 'hour',
    until,
    points,
  }).toString();
  assert.match(markup, /<svg[^>]*role="img"[^>]*aria-labelledby="u0-calls-title u0-calls-desc"/);
  assert.match(
    markup,
    /<title id="u0-calls-title">Calls per minute: getPayment · agent \(development\)<\/title>/,
  );
  assert.match(markup, /<summary>\s*The numbers \(2 minutes with calls\)\s*<\/summary>/);
  const rows = [
    ...markup.matchAll(/<tr>\s*<th scope="row" data-label="Time">([^<]+)<\/th>([\s\S]*?)<\/tr>/g),
  ].map((m) => [m[1], ...[...(m[2] ?? '').matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => c[1])]);
  assert.deepEqual(rows, [
    ['03:10', '4', '1', '2', '12.0 ms', '40.0 ms', '12.0 ms'],
    ['03:37', '1', '0', '0', '56.0 ms', '56.0 ms', '56.0 ms'],
  ]);
});

test('an empty window draws no bars and says so', () => {
  const markup = usageCharts({
    id: 'e',
    subject: 's',
    window: 'day',
    until,
    points: [],
  }).toString();
  assert.equal(attrs(markup, 'rect', 'bar-ok').length, 0);
  assert.match(markup, /No timed calls in the last day\./);
});

test('audit difference: one line per changed path, added and removed paths named', () => {
  assert.deepEqual(
    auditDiff(
      { status: 'active', limits: { rateLimitPerMinute: 60 }, tools: ['a'] },
      { status: 'suspended', limits: { rateLimitPerMinute: 60 }, tools: ['a', 'b'], note: 'x' },
    ),
    [
      { kind: 'changed', path: 'status', before: '"active"', after: '"suspended"' },
      { kind: 'changed', path: 'tools', before: '["a"]', after: '["a","b"]' },
      { kind: 'added', path: 'note', after: '"x"' },
    ],
  );
  assert.deepEqual(auditDiff(null, { a: 1 }), [{ kind: 'added', path: 'a', after: '1' }]);
  assert.deepEqual(
    auditDiff({ overrides: {} }, { overrides: { title: 'T' } }),
    [{ kind: 'added', path: 'overrides.title', after: '"T"' }],
    'an empty object that gains a field is not also "removed"',
  );
  assert.deepEqual(auditDiff({ a: 1 }, undefined), [{ kind: 'removed', path: 'a', before: '1' }]);
  assert.deepEqual(auditDiff('x', 'y'), [
    { kind: 'changed', path: '', before: '"x"', after: '"y"' },
  ]);
  assert.deepEqual(auditDiff(undefined, null), []);
});

test('words: times as people read them, the security class as the docs name it', () => {
  assert.equal(formatTime('2026-11-26T03:37:12.345Z'), '26 Nov 2026, 03:37 UTC');
  assert.equal(formatTime(null), '—');
  assert.equal(formatTime('not a time'), 'not a time');
  assert.equal(securityClassLabel('user'), 'user-scoped');
  assert.equal(securityClassLabel('public'), 'public');
});
