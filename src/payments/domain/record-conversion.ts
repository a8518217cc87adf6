// Turning submitted records into stored ones and stored ones into responses (pure).
import { toDecimalString } from './currencies.js';
import type { PaymentStatus } from './lifecycle.js';
import { electronicIban, isIbanAccount } from './rules/identifiers.js';
import { at, cloneJson, hasSchedule, num, obj, str, type PaymentRecord } from './record-access.js';
import type { ScheduleProgress } from './schedule.js';

/** Fields of paymentInstructionReference the service owns (client values are replaced). */
const SERVER_FIELDS = [
  'identification',
  'status',
  'reason',
  'statusReasons',
  'usedMechanism',
  'remainingInstances',
  'nextExecutionDate',
];

/** INITIATED, or SCHEDULED when the record has a schedule or a future requested execution date. */
export function initialStatus(record: PaymentRecord, now: Date): PaymentStatus {
  if (hasSchedule(record)) return 'SCHEDULED';
  const requested = Date.parse(
    str(at(record, 'paymentInstruction', 'paymentDates', 'requestedExecutionDate')) ?? '',
  );
  if (!Number.isNaN(requested)) {
    const today = now.toISOString().slice(0, 10);
    if (new Date(requested).toISOString().slice(0, 10) > today) return 'SCHEDULED';
  }
  return 'INITIATED';
}

/**
 * The status after an update: kept, unless the update changes what decides between INITIATED and
 * SCHEDULED (the schedule or the requested execution date); then decided afresh. SUSPENDED stays.
 * Time passing alone never moves a payment: that is the clearing side's (operator endpoint).
 */
export function statusAfterUpdate(
  current: PaymentStatus,
  before: PaymentRecord,
  after: PaymentRecord,
  now: Date,
): PaymentStatus {
  if (current !== 'INITIATED' && current !== 'SCHEDULED') return current;
  const timing = (r: PaymentRecord) =>
    JSON.stringify([
      at(r, 'paymentInstruction', 'schedule') ?? null,
      at(r, 'paymentInstruction', 'paymentDates', 'requestedExecutionDate') ?? null,
    ]);
  return timing(before) === timing(after) ? current : initialStatus(after, now);
}

/**
 * The record to store: the client's record with the service-owned reference fields set and IBANs in their
 * electronic form (as pain.001 carries them: no spaces, upper case).
 */
export function prepareRecord(
  submitted: PaymentRecord,
  fields: { identification: string; uetr: string; usedMechanism?: string | undefined },
): PaymentRecord {
  const record = cloneJson(submitted);
  const reference = { ...(obj(record['paymentInstructionReference']) ?? {}) };
  for (const f of SERVER_FIELDS) delete reference[f];
  reference['identification'] = fields.identification;
  reference['uetr'] = fields.uetr;
  if (fields.usedMechanism !== undefined) reference['usedMechanism'] = fields.usedMechanism;
  record['paymentInstructionReference'] = reference;
  for (const name of ['payerAccountReference', 'payeeAccountReference']) {
    const account = obj(at(record, name, 'paymentInstructionAccount'));
    const id = str(account?.['accountId']);
    if (account && id !== undefined && isIbanAccount(id, str(account['numberType'])))
      account['accountId'] = electronicIban(id);
  }
  return record;
}

/** One entry of `statusReasons`: where, which rule, the ISO 20022 reason code and a message. */
export interface StatusReason {
  readonly pointer: string;
  readonly code: string;
  readonly reason: string;
  readonly message: string;
}

/**
 * The record as the API returns it: stored record plus current status and reason, and (validatePayment)
 * every status reason found. Status fields the client sent are replaced, never echoed.
 */
export function renderRecord(
  record: PaymentRecord,
  status: PaymentStatus | null,
  reason: string | null,
  statusReasons: readonly StatusReason[] = [],
  progress?: ScheduleProgress,
): PaymentRecord {
  const out = cloneJson(record);
  const reference = { ...(obj(out['paymentInstructionReference']) ?? {}) };
  for (const f of ['reason', 'statusReasons', 'remainingInstances', 'nextExecutionDate'])
    delete reference[f];
  reference['status'] = status;
  if (progress) {
    reference['remainingInstances'] = progress.remainingInstances;
    if (progress.nextExecutionDate !== undefined)
      reference['nextExecutionDate'] = progress.nextExecutionDate;
  }
  if (reason !== null) reference['reason'] = reason;
  if (statusReasons.length > 0)
    reference['statusReasons'] = statusReasons.map(({ pointer, code, reason: r, message }) => ({
      pointer,
      code,
      reason: r,
      message,
    }));
  out['paymentInstructionReference'] = reference;
  return out;
}

/** The instructed amount as a decimal string with the currency's minor unit (stored column). */
export function instructedAmountOf(record: PaymentRecord): {
  amount: string | null;
  currency: string | null;
} {
  const amount = num(at(record, 'paymentInstruction', 'amount', 'instructedAmount'));
  const currency = str(at(record, 'paymentInstruction', 'amount', 'instructedCurrency')) ?? null;
  return {
    amount: amount === undefined ? null : toDecimalString(amount, currency ?? ''),
    currency,
  };
}
