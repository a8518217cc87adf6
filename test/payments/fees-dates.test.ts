import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { quoteDates } from '../../src/payments/domain/fees/dates.js';
import { railClock, railOf } from '../../src/payments/domain/fees/rails.js';
import type { Channel, Scope } from '../../src/payments/domain/fees/schedule.js';
import { formatZoned, offsetMinutes } from '../../src/payments/domain/fees/calendar.js';
import {
  easterSunday,
  englandWalesHolidays,
  federalReserveHolidays,
  targetHolidays,
} from '../../src/payments/domain/fees/holidays.js';

const fees = loadConfig({ env: {} }).payments.fees;

function dates(
  at: string,
  channel: Channel,
  currency = 'EUR',
  scope: Scope = 'DOMESTIC',
  mechanism?: string,
  settings = fees,
) {
  const requested = new Date(at);
  const rail = railOf(settings, mechanism, channel, currency);
  const clock = railClock(settings, rail, channel, currency, requested);
  const q = quoteDates({
    requested,
    scope,
    calendar: clock.calendar,
    cutOff: clock.cutOff,
    settlementDays: clock.settlementDays,
    crossBorderExtraDays: settings.crossBorderExtraDays,
  });
  return { rail: clock.rail, execution: q.executionDate, value: q.valueDate, dates: q.dates };
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
  // TARGET2 customer payments close at 17:00 Frankfurt time, CEST in summer.
  const summer = dates('2026-07-01T08:00:00Z', 'RTGS');
  assert.deepEqual(summer.dates[1], {
    dateType: 'CUT_OFF_TIME',
    dateTime: '2026-07-01T17:00:00+02:00',
  });
  assert.equal(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'America/New_York'), -300);
  assert.equal(
    formatZoned(new Date('2026-01-15T12:00:00Z'), 'America/New_York'),
    '2026-01-15T07:00:00-05:00',
  );
});

test('each rail is chosen by its mechanism, else by channel and currency; book uses the bank clock', () => {
  const rail = (channel: Channel, currency: string, mechanism?: string) =>
    dates('2026-11-18T12:00:00Z', channel, currency, 'DOMESTIC', mechanism).rail;
  assert.equal(rail('RTGS', 'USD'), 'FEDWIRE');
  assert.equal(rail('MPNS', 'USD'), 'ACH');
  assert.equal(rail('RTGS', 'EUR'), 'TARGET2');
  assert.equal(rail('MPNS', 'EUR'), 'SEPA');
  assert.equal(rail('RTGS', 'GBP'), 'CHAPS');
  assert.equal(rail('MPNS', 'GBP'), 'BACS');
  assert.equal(rail('RTNS', 'GBP'), 'FPS');
  assert.equal(rail('MPNS', 'USD', 'nacha'), 'ACH');
  assert.equal(rail('RTGS', 'USD', 'SWIFT'), 'FEDWIRE');
  // A generic mechanism does not name a rail: a EUR wire goes over TARGET2.
  assert.equal(rail('RTGS', 'EUR', 'WIRE'), 'TARGET2');
  assert.equal(rail('RTGS', 'JPY'), 'BANK');
  assert.equal(rail('BOOK', 'USD', 'FEDWIRE'), 'BANK');
});

test('Fedwire runs on New York time: 15:00 ET executes today, 18:30 ET the next business day', () => {
  // Friday 2026-11-20, 15:00 in New York (21:00 in Frankfurt, past any Berlin cut-off).
  const afternoon = dates('2026-11-20T20:00:00Z', 'RTGS', 'USD', 'DOMESTIC', 'FEDWIRE');
  assert.equal(afternoon.execution, '2026-11-20');
  assert.equal(afternoon.value, '2026-11-20');
  assert.deepEqual(afternoon.dates, [
    { dateType: 'EXECUTION_DATE', dateTime: '2026-11-20T15:00:00-05:00' },
    { dateType: 'CUT_OFF_TIME', dateTime: '2026-11-20T18:00:00-05:00' },
    { dateType: 'VALUE_DATE', dateTime: '2026-11-20T00:00:00-05:00' },
  ]);
  // 18:30 ET on Friday: after the customer-transfer cut-off, so Monday.
  const evening = dates('2026-11-20T23:30:00Z', 'RTGS', 'USD', 'DOMESTIC', 'FEDWIRE');
  assert.equal(evening.execution, '2026-11-23');
  assert.equal(evening.dates[1]?.dateTime, '2026-11-23T18:00:00-05:00');
  // 18:30 ET on a Tuesday is already Wednesday in UTC and in Frankfurt; the next business day in
  // New York is that same Wednesday.
  assert.equal(dates('2026-11-17T23:30:00Z', 'RTGS', 'USD').execution, '2026-11-18');
  // 17:59 ET just makes it.
  assert.equal(dates('2026-11-17T22:59:00Z', 'RTGS', 'USD').execution, '2026-11-17');
});

test('SEPA and TARGET2 cut-offs are Frankfurt times', () => {
  // Wednesday 2026-11-18 (CET, UTC+1): SEPA closes 14:00, TARGET2 customer payments 17:00.
  assert.equal(
    dates('2026-11-18T12:59:00Z', 'MPNS', 'EUR', 'DOMESTIC', 'SEPA').execution,
    '2026-11-18',
  );
  const late = dates('2026-11-18T13:01:00Z', 'MPNS', 'EUR', 'DOMESTIC', 'SEPA');
  assert.equal(late.execution, '2026-11-19');
  assert.equal(late.value, '2026-11-20');
  assert.equal(late.dates[1]?.dateTime, '2026-11-19T14:00:00+01:00');
  assert.equal(dates('2026-11-18T15:59:00Z', 'RTGS', 'EUR').execution, '2026-11-18');
  assert.equal(dates('2026-11-18T16:01:00Z', 'RTGS', 'EUR').execution, '2026-11-19');
});

test('Good Friday closes TARGET (SEPA) and UK rails, not Fedwire', () => {
  // Good Friday 2026-04-03, Easter Monday 2026-04-06.
  const sepa = dates('2026-04-03T08:00:00Z', 'MPNS', 'EUR', 'DOMESTIC', 'SEPA');
  assert.equal(sepa.execution, '2026-04-07');
  assert.equal(sepa.value, '2026-04-08');
  assert.equal(dates('2026-04-02T08:00:00Z', 'MPNS', 'EUR').value, '2026-04-07');
  assert.equal(
    dates('2026-04-03T08:00:00Z', 'RTGS', 'GBP', 'DOMESTIC', 'CHAPS').execution,
    '2026-04-07',
  );
  const fedwire = dates('2026-04-03T14:00:00Z', 'RTGS', 'USD', 'DOMESTIC', 'FEDWIRE');
  assert.equal(fedwire.execution, '2026-04-03');
  assert.equal(fedwire.dates[1]?.dateTime, '2026-04-03T18:00:00-04:00');
});

test('Juneteenth closes ACH; a Saturday Fed holiday is not observed on the Friday', () => {
  // Friday 2026-06-19 is Juneteenth: an ACH credit requested that morning goes Monday, value Tuesday.
  const ach = dates('2026-06-19T14:00:00Z', 'MPNS', 'USD', 'DOMESTIC', 'ACH');
  assert.equal(ach.execution, '2026-06-22');
  assert.equal(ach.value, '2026-06-23');
  // Thursday before: value date skips the holiday.
  assert.equal(dates('2026-06-18T14:00:00Z', 'MPNS', 'USD').value, '2026-06-22');
  // TARGET is open on Juneteenth.
  assert.equal(dates('2026-06-19T08:00:00Z', 'MPNS', 'EUR').execution, '2026-06-19');
  // 2027-06-19 is a Saturday: the Fed does not close on Friday 2027-06-18.
  assert.equal(dates('2027-06-18T14:00:00Z', 'MPNS', 'USD').execution, '2027-06-18');
  // 2027-07-04 is a Sunday: observed on Monday 2027-07-05.
  assert.equal(dates('2027-07-05T14:00:00Z', 'RTGS', 'USD').execution, '2027-07-06');
});

test('DST boundaries: New York on EDT while Frankfurt is still on CET', () => {
  // Monday 2026-03-09: New York moved to EDT (UTC-4) on 8 March; Europe moves on 29 March.
  const before = dates('2026-03-09T21:45:00Z', 'RTGS', 'USD'); // 17:45 EDT
  assert.equal(before.execution, '2026-03-09');
  assert.equal(before.dates[1]?.dateTime, '2026-03-09T18:00:00-04:00');
  const after = dates('2026-03-09T22:15:00Z', 'RTGS', 'USD'); // 18:15 EDT (17:15 had it been EST)
  assert.equal(after.execution, '2026-03-10');
  // SEPA on the Friday before Europe's switch (CET) and the Monday after (CEST).
  assert.equal(
    dates('2026-03-27T08:00:00Z', 'MPNS', 'EUR').dates[1]?.dateTime,
    '2026-03-27T14:00:00+01:00',
  );
  assert.equal(
    dates('2026-03-30T08:00:00Z', 'MPNS', 'EUR').dates[1]?.dateTime,
    '2026-03-30T14:00:00+02:00',
  );
  // 12:30 UTC on 30 March is 14:30 CEST: past the SEPA cut-off (it would not be on CET).
  assert.equal(dates('2026-03-30T12:30:00Z', 'MPNS', 'EUR').execution, '2026-03-31');
});

test('UK rails run on London time with England & Wales bank holidays', () => {
  // CHAPS customer payments close 17:40 London (GMT in November).
  assert.equal(dates('2026-11-18T17:39:00Z', 'RTGS', 'GBP').execution, '2026-11-18');
  assert.equal(dates('2026-11-18T17:41:00Z', 'RTGS', 'GBP').execution, '2026-11-19');
  // Bacs: three-day cycle; the summer bank holiday (last Monday of August, 2026-08-31) is skipped.
  const bacs = dates('2026-08-27T10:00:00Z', 'MPNS', 'GBP');
  assert.equal(bacs.rail, 'BACS');
  assert.equal(bacs.value, '2026-09-01');
  assert.equal(bacs.dates[1]?.dateTime, '2026-08-27T22:30:00+01:00');
  // Faster Payments run every day.
  assert.equal(dates('2026-08-29T10:00:00Z', 'RTNS', 'GBP').execution, '2026-08-29');
});

test('rail clocks are configurable; a partial override keeps the rest of the rail', () => {
  const custom = loadConfig({
    env: {},
    overrides: {
      payments: { fees: { rails: { FEDWIRE: { cutOff: '17:00', holidays: ['2026-11-18'] } } } },
    },
  }).payments.fees;
  assert.equal(custom.rails.FEDWIRE.timeZone, 'America/New_York');
  assert.equal(custom.rails.FEDWIRE.calendar, 'FEDERAL_RESERVE');
  const d = dates('2026-11-17T22:30:00Z', 'RTGS', 'USD', 'DOMESTIC', undefined, custom);
  assert.equal(d.execution, '2026-11-19');
  assert.equal(d.dates[1]?.dateTime, '2026-11-19T17:00:00-05:00');
  assert.throws(() =>
    loadConfig({ env: {}, overrides: { payments: { fees: { rails: { SWIFTNET: {} } } } } }),
  );
});

test('holiday calendars by rule match the published closing days', () => {
  assert.deepEqual(
    ['2024', '2025', '2026', '2027', '2038'].map((y) => easterSunday(Number(y))),
    ['2024-03-31', '2025-04-20', '2026-04-05', '2027-03-28', '2038-04-25'],
  );
  assert.deepEqual(federalReserveHolidays(2026), [
    '2026-01-01',
    '2026-01-19',
    '2026-02-16',
    '2026-05-25',
    '2026-06-19',
    '2026-09-07',
    '2026-10-12',
    '2026-11-11',
    '2026-11-26',
    '2026-12-25',
  ]);
  assert.deepEqual(federalReserveHolidays(2027), [
    '2027-01-01',
    '2027-01-18',
    '2027-02-15',
    '2027-05-31',
    '2027-07-05',
    '2027-09-06',
    '2027-10-11',
    '2027-11-11',
    '2027-11-25',
  ]);
  assert.deepEqual(targetHolidays(2027), [
    '2027-01-01',
    '2027-03-26',
    '2027-03-29',
    '2027-05-01',
    '2027-12-25',
    '2027-12-26',
  ]);
  assert.deepEqual(englandWalesHolidays(2026), [
    '2026-01-01',
    '2026-04-03',
    '2026-04-06',
    '2026-05-04',
    '2026-05-25',
    '2026-08-31',
    '2026-12-25',
    '2026-12-28',
  ]);
  assert.deepEqual(englandWalesHolidays(2027), [
    '2027-01-01',
    '2027-03-26',
    '2027-03-29',
    '2027-05-03',
    '2027-05-31',
    '2027-08-30',
    '2027-12-27',
    '2027-12-28',
  ]);
  // Christmas on a Sunday: Boxing Day Monday, Christmas substitute Tuesday; New Year on Saturday → Monday.
  assert.deepEqual(englandWalesHolidays(2022).slice(-2), ['2022-12-26', '2022-12-27']);
  assert.equal(englandWalesHolidays(2022)[0], '2022-01-03');
});
