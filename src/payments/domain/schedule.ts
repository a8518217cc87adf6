// Schedule arithmetic (pure): how many instances a schedule has and how many remain.
import { scheduleOf, type PaymentOrder } from './payment-order.js';

const MAX_INSTANCES = 10000;
const STEP_DAYS: Record<string, number> = { DAILY: 1, WEEKLY: 7, BIWEEKLY: 14 };
const STEP_MONTHS: Record<string, number> = { MONTHLY: 1, QUARTERLY: 3, YEARLY: 12 };

/** Total instances of the order's schedule; undefined for an open-ended standing order. */
export function totalInstances(order: PaymentOrder): number | undefined {
  const schedule = scheduleOf(order);
  if (!schedule) return 1;
  const frequency = schedule.frequency;
  if (frequency === 'ONCE') return 1;
  const repetitions = schedule.noOfRepetition;
  if (repetitions !== undefined) return repetitions;
  const end = Date.parse(schedule.endDate ?? '');
  if (Number.isNaN(end)) return undefined;
  const start = Date.parse(schedule.startDate ?? schedule.executeOn ?? '');
  if (Number.isNaN(start) || start > end) return 0;
  const skip = schedule.skipInterval ?? 1;
  let count = 0;
  for (let i = 0; count < MAX_INSTANCES; i += skip) {
    if (occurrence(start, frequency ?? 'MONTHLY', i) > end) break;
    count += 1;
  }
  return count;
}

function occurrence(start: number, frequency: string, index: number): number {
  const days = STEP_DAYS[frequency];
  if (days !== undefined) return start + index * days * 86_400_000;
  const date = new Date(start);
  date.setUTCMonth(date.getUTCMonth() + index * (STEP_MONTHS[frequency] ?? 1));
  return date.getTime();
}

/** Instances still to execute, given how many were skipped or executed (undefined = open-ended). */
export function remainingInstances(order: PaymentOrder, consumed: number): number | undefined {
  const total = totalInstances(order);
  return total === undefined ? undefined : Math.max(0, total - consumed);
}

const DAY_MS = 86_400_000;

/**
 * The first execution of the order's schedule on `today` (a UTC day) or later, as a time stamp; undefined
 * when every execution lies before that day. Without a startDate (or executeOn) there is nothing to
 * compute and the answer is undefined too. The first `consumed` instances (skipped or executed) are
 * passed over.
 */
export function nextExecutionFrom(
  order: PaymentOrder,
  today: Date,
  consumed = 0,
): number | undefined {
  const schedule = scheduleOf(order);
  if (!schedule) return undefined;
  const start = Date.parse(schedule.startDate ?? schedule.executeOn ?? '');
  if (Number.isNaN(start)) return undefined;
  const dayStart = Math.floor(today.getTime() / DAY_MS) * DAY_MS;
  const frequency = schedule.frequency ?? 'MONTHLY';
  if (frequency === 'ONCE') return start >= dayStart && consumed === 0 ? start : undefined;
  const repetitions = schedule.noOfRepetition;
  const end = Date.parse(schedule.endDate ?? '');
  const skip = schedule.skipInterval ?? 1;
  for (let n = Math.max(0, consumed); n < MAX_INSTANCES; n += 1) {
    if (repetitions !== undefined && n >= repetitions) return undefined;
    const at = occurrence(start, frequency, n * skip);
    if (!Number.isNaN(end) && at > end) return undefined;
    if (at >= dayStart) return at;
  }
  return undefined;
}

/** What getPayment shows of a schedule: instances still to execute (null: open-ended) and the next date. */
export interface ScheduleProgress {
  readonly remainingInstances: number | null;
  readonly nextExecutionDate?: string;
}

/** The progress of the order's schedule; undefined for a payment without a schedule. */
export function scheduleProgress(
  order: PaymentOrder,
  consumed: number,
  today: Date,
): ScheduleProgress | undefined {
  if (!scheduleOf(order)) return undefined;
  const remaining = remainingInstances(order, consumed);
  const next = remaining === 0 ? undefined : nextExecutionFrom(order, today, consumed);
  return {
    remainingInstances: remaining ?? null,
    ...(next !== undefined ? { nextExecutionDate: new Date(next).toISOString() } : {}),
  };
}

/**
 * The instant of the schedule's `n`-th execution (0 = the first), skip interval applied; undefined when
 * the schedule has fewer executions (repetitions, end date) or cannot be computed.
 */
export function occurrenceAt(order: PaymentOrder, n: number): number | undefined {
  const schedule = scheduleOf(order);
  if (!schedule || n < 0 || n >= MAX_INSTANCES) return undefined;
  const start = Date.parse(schedule.startDate ?? schedule.executeOn ?? '');
  if (Number.isNaN(start)) return undefined;
  const frequency = schedule.frequency ?? 'MONTHLY';
  if (frequency === 'ONCE') return n === 0 ? start : undefined;
  if (schedule.noOfRepetition !== undefined && n >= schedule.noOfRepetition) return undefined;
  const at = occurrence(start, frequency, n * (schedule.skipInterval ?? 1));
  const end = Date.parse(schedule.endDate ?? '');
  return !Number.isNaN(end) && at > end ? undefined : at;
}
