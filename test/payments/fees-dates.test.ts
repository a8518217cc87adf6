import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { quoteDates } from '../../src/payments/domain/fees/dates.js';
import type { Channel, Scope } from '../../src/payments/domain/fees/schedule.js';
import { formatZoned, offsetMinutes } from '../../src/payments/domain/fees/calendar.js';

const fees = loadConfig({ env: {} }).payments.fees;

function dates(at: string, channel: Channel, currency = 'EUR', scope: Scope = 'DOMESTIC') {
  const q = quoteDates({
    requested: new Date(at),
    channel,
    scope,
    calendar: {
      timeZone: fees.timeZone,
      weekendDays: fees.weekendDays,
      holidays: new Set(fees.holidaysByCurrency[currency] ?? []),
    },
    cutOffTimes: fees.cutOffTimes,
    settlementDays: fees.settlementDays,
    crossBorderExtraDays: fees.crossBorderExtraDays,
  });
  return { execution: q.executionDate, value: q.valueDate, dates: q.dates };
}

test('before the cut-off on a business day: executed the same day, value next business day', () => {
  // Friday 2026-11-20, 11:00 in Frankfurt; SEPA batch cut-off 14:00, one settlement day.
  const d = dates('2026-11-20T10:00:00Z', 'MPNS');
  assert.equal(d.execution, '2026-11-20');
  assert.equal(d.value, '2026-11-23');
  assert.deepEqual(d.dates[1], { dateType: 'CUT_OFF_TIME', dateTime: '2026-11-20T14:00:00+01:00' });
  assert.deepEqual(d.dates[0], {
    dateType: 'EXECUTION_DATE',
    dateTime: '2026-11-20T11:00:00+01:00',
  });
});

test('after the cut-off on a Friday the payment rolls over the weekend', () => {
  const d = dates('2026-11-20T15:30:00Z', 'MPNS');
  assert.equal(d.execution, '2026-11-23');
  assert.equal(d.value, '2026-11-24');
  assert.deepEqual(d.dates[0], {
    dateType: 'EXECUTION_DATE',
    dateTime: '2026-11-23T00:00:00+01:00',
  });
});

test('weekend and holiday requests roll to the next business day', () => {
  assert.equal(dates('2026-11-21T09:00:00Z', 'RTGS').execution, '2026-11-23');
  // Christmas: 25 and 26 December are TARGET holidays, 27 is a Sunday.
  assert.equal(dates('2026-12-25T09:00:00Z', 'RTGS').execution, '2026-12-28');
  const eve = dates('2026-12-24T09:00:00Z', 'MPNS');
  assert.equal(eve.execution, '2026-12-24');
  assert.equal(eve.value, '2026-12-28');
  // Thanksgiving closes the Fed, not TARGET.
  assert.equal(dates('2026-11-26T12:00:00Z', 'RTGS', 'USD').execution, '2026-11-27');
  assert.equal(dates('2026-11-26T12:00:00Z', 'RTGS', 'EUR').execution, '2026-11-26');
});

test('cross-border payments settle a business day later; instant same day', () => {
  assert.equal(dates('2026-11-19T09:00:00Z', 'RTGS', 'EUR', 'CROSS_BORDER').value, '2026-11-20');
  assert.equal(dates('2026-11-19T09:00:00Z', 'RTNS').value, '2026-11-19');
});

test('cut-off times follow daylight saving time in the configured zone', () => {
  const summer = dates('2026-07-01T08:00:00Z', 'RTGS');
  assert.deepEqual(summer.dates[1], {
    dateType: 'CUT_OFF_TIME',
    dateTime: '2026-07-01T16:00:00+02:00',
  });
  assert.equal(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'America/New_York'), -300);
  assert.equal(
    formatZoned(new Date('2026-01-15T12:00:00Z'), 'America/New_York'),
    '2026-01-15T07:00:00-05:00',
  );
});
