// Date rules that need the clock (pure: `now` is passed in): no execution date on a past day, no schedule
// without a startDate, no schedule whose every execution lies in the past. Days are UTC days, as for the
// INITIATED/SCHEDULED decision.
import { at, obj, str, type PaymentRecord } from '../record-access.js';
import { nextExecutionFrom } from '../schedule.js';
import type { RuleViolation } from './violation.js';

const SCHEDULE = '/paymentInstruction/schedule';

export function checkDateRules(record: PaymentRecord, now: Date): RuleViolation[] {
  const errors: RuleViolation[] = [];
  const today = now.toISOString().slice(0, 10);
  const requested = str(at(record, 'paymentInstruction', 'paymentDates', 'requestedExecutionDate'));
  const requestedAt = Date.parse(requested ?? '');
  if (!Number.isNaN(requestedAt) && new Date(requestedAt).toISOString().slice(0, 10) < today) {
    errors.push({
      pointer: '/paymentInstruction/paymentDates/requestedExecutionDate',
      code: 'EXECUTION_DATE_PAST',
      reason: 'DT01',
      message: `the requested execution date ${requested ?? ''} lies before today (${today}, UTC)`,
    });
  }

  const schedule = obj(at(record, 'paymentInstruction', 'schedule'));
  if (!schedule) return errors;
  if (str(schedule['startDate']) === undefined) {
    errors.push({
      pointer: `${SCHEDULE}/startDate`,
      code: 'SCHEDULE_START_REQUIRED',
      reason: 'DT01',
      message: 'a schedule needs a startDate: the date from which its executions are computed',
    });
    return errors;
  }
  const start = Date.parse(str(schedule['startDate']) ?? '');
  const end = Date.parse(str(schedule['endDate']) ?? '');
  const ordered = Number.isNaN(end) || start < end; // otherwise DATE_ORDER names the problem
  if (ordered && nextExecutionFrom(record, now) === undefined) {
    const bound = str(schedule['endDate']) !== undefined ? 'endDate' : 'startDate';
    errors.push({
      pointer: `${SCHEDULE}/${bound}`,
      code: 'SCHEDULE_IN_PAST',
      reason: 'DT01',
      message: `every execution of this schedule lies before today (${today}, UTC): nothing is left to pay`,
    });
  }
  return errors;
}
