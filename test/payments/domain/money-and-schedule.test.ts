import test from 'node:test';
import assert from 'node:assert/strict';
import { decimalsOf, minorUnit, toDecimalString } from '../../../src/payments/domain/currencies.js';
import { isCountry } from '../../../src/payments/domain/countries.js';
import { totalInstances } from '../../../src/payments/domain/schedule.js';

test('decimals of JSON numbers, including exponent forms', () => {
  assert.deepEqual(
    [1, 1.5, 0.01, 1e-7, 1.25e-3, 1e21, 100.1].map(decimalsOf),
    [0, 1, 2, 7, 5, 0, 1],
  );
});

test('ISO 4217 minor units and ISO 3166 codes (CLF, a unit of account, is not payable: issue 26 item 7)', () => {
  assert.deepEqual(['JPY', 'USD', 'KWD', 'CLF', 'EUR', 'HRK'].map(minorUnit), [
    0,
    2,
    3,
    undefined,
    2,
    undefined,
  ]);
  assert.equal(toDecimalString(125.5, 'EUR'), '125.50');
  assert.equal(toDecimalString(7, 'KWD'), '7.000');
  assert.ok(isCountry('DE') && isCountry('XK') === false && isCountry('GB'));
});

test('schedule instance counts', () => {
  const rec = (schedule: Record<string, unknown>) => ({ paymentInstruction: { schedule } });
  assert.equal(totalInstances({}), 1);
  assert.equal(totalInstances(rec({ frequency: 'ONCE' })), 1);
  assert.equal(totalInstances(rec({ frequency: 'DAILY', noOfRepetition: 4 })), 4);
  assert.equal(totalInstances(rec({ frequency: 'MONTHLY' })), undefined);
  const window = { startDate: '2027-01-01T00:00:00Z', endDate: '2027-12-31T00:00:00Z' };
  assert.equal(totalInstances(rec({ frequency: 'MONTHLY', ...window })), 12);
  assert.equal(totalInstances(rec({ frequency: 'MONTHLY', skipInterval: 2, ...window })), 6);
  assert.equal(totalInstances(rec({ frequency: 'QUARTERLY', ...window })), 4);
  assert.equal(
    totalInstances(
      rec({
        frequency: 'WEEKLY',
        startDate: '2027-01-01T00:00:00Z',
        endDate: '2027-01-29T00:00:00Z',
      }),
    ),
    5,
  );
});
