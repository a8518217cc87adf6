// Calendar windows of money budgets (issue 25, "Money budgets": "over a day and a month"), in the
// configured time zone (gateway.governance.budgets.timeZone).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { windowAt } from '../../../../src/gateway/governance/budgets/calendar.js';
import { parseBudgetsConfig } from '../../../../src/config/gateway-governance-budgets.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('budget calendar windows', () => {
  it('UTC: the day and the month containing an instant', () => {
    const at = Date.parse('2026-11-26T23:59:59.999Z');
    const day = windowAt(at, 'day', 'UTC');
    assert.equal(day.id, '2026-11-26');
    assert.equal(iso(day.startMs), '2026-11-26T00:00:00.000Z');
    assert.equal(iso(day.endMs), '2026-11-27T00:00:00.000Z');
    const month = windowAt(at, 'month', 'UTC');
    assert.equal(month.id, '2026-11');
    assert.equal(iso(month.startMs), '2026-11-01T00:00:00.000Z');
    assert.equal(iso(month.endMs), '2026-12-01T00:00:00.000Z');
    // December rolls into the next year.
    const dec = windowAt(Date.parse('2026-12-31T12:00:00Z'), 'month', 'UTC');
    assert.equal(iso(dec.endMs), '2027-01-01T00:00:00.000Z');
    assert.equal(windowAt(Date.parse('2026-11-27T00:00:00Z'), 'day', 'UTC').id, '2026-11-27');
  });

  it('Europe/Berlin: local midnight, and the 23- and 25-hour days of the DST changes', () => {
    // 23:30 UTC on 26 Nov is already 27 Nov in Berlin (UTC+1).
    const day = windowAt(Date.parse('2026-11-26T23:30:00Z'), 'day', 'Europe/Berlin');
    assert.equal(day.id, '2026-11-27');
    assert.equal(iso(day.startMs), '2026-11-26T23:00:00.000Z');
    assert.equal(iso(day.endMs), '2026-11-27T23:00:00.000Z');
    const spring = windowAt(Date.parse('2026-03-29T12:00:00Z'), 'day', 'Europe/Berlin');
    assert.equal(iso(spring.startMs), '2026-03-28T23:00:00.000Z');
    assert.equal(iso(spring.endMs), '2026-03-29T22:00:00.000Z');
    const autumn = windowAt(Date.parse('2026-10-25T12:00:00Z'), 'day', 'Europe/Berlin');
    assert.equal(autumn.endMs - autumn.startMs, 25 * 3600_000);
    const month = windowAt(Date.parse('2026-03-31T22:30:00Z'), 'month', 'Europe/Berlin');
    assert.equal(month.id, '2026-04');
    assert.equal(iso(month.startMs), '2026-03-31T22:00:00.000Z');
  });

  it('a zone that skips midnight (America/Santiago, DST at 00:00) starts the day after the gap', () => {
    // Chile moved clocks from 00:00 to 01:00 on 2026-09-06.
    const day = windowAt(Date.parse('2026-09-06T12:00:00Z'), 'day', 'America/Santiago');
    assert.equal(day.id, '2026-09-06');
    assert.equal(iso(day.startMs), '2026-09-06T04:00:00.000Z');
    assert.ok(day.startMs <= Date.parse('2026-09-06T12:00:00Z'));
    assert.ok(day.endMs > Date.parse('2026-09-06T12:00:00Z'));
  });

  it('gateway.governance.budgets.timeZone: default UTC; an unknown zone is refused by name', () => {
    assert.equal(parseBudgetsConfig({}).timeZone, 'UTC');
    assert.equal(parseBudgetsConfig({ timeZone: 'Europe/Berlin' }).timeZone, 'Europe/Berlin');
    assert.throws(
      () => parseBudgetsConfig({ timeZone: 'Mars/Olympus' }),
      /gateway\.governance\.budgets\.timeZone: "Mars\/Olympus" is not an IANA time zone/,
    );
  });
});
