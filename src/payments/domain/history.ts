// The payment history (pure): what a change did to a payment, as one entry per change, and the field-level
// difference between two versions of a record. Stored by storage/payments-repo.ts, documented in
// docs/decisions.md (D-161 to D-163).
import { toDecimalString } from './currencies.js';
import type { CancellationType } from './cancellation.js';
import type { PaymentStatus } from './lifecycle.js';
import type { PaymentOrder } from './payment-order.js';

export const HISTORY_KINDS = ['CREATED', 'UPDATED', 'CANCELLED', 'STATUS_CHANGED'] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/**
 * A leaf value of a change, always text: strings as they are, numbers as exact decimal strings, booleans
 * as "true" / "false"; null when absent.
 */
export type ChangeValue = string | null;

/** One changed field: JSON pointer (RFC 6901) into the payment record, value before and after. */
export interface FieldChange {
  readonly pointer: string;
  readonly before: ChangeValue;
  readonly after: ChangeValue;
}

export interface CancellationDetails {
  readonly cancellationType: CancellationType;
  /** Schedule instances cancelled by this request (absent when the whole payment was cancelled). */
  readonly instances?: number;
}

/** What one change did; the time and the payment version are added by the storage layer. */
export interface HistoryEvent {
  readonly kind: HistoryKind;
  /** `user:<id>` for the owner, `operator:…<last 4 of the token>` for the operator endpoint. */
  readonly actor: string;
  readonly reason: string | null;
  /** Set when the status changed (fromStatus null at creation). */
  readonly fromStatus?: PaymentStatus | null;
  readonly toStatus?: PaymentStatus;
  readonly changes?: readonly FieldChange[];
  /** True when `changes` was cut at MAX_CHANGES entries. */
  readonly changesTruncated?: boolean;
  readonly cancellation?: CancellationDetails;
  /** Free text given by the operator (at most 140 characters). */
  readonly description?: string;
  /** ISO 20022 payment status of a status change (ACSP, ACSC, RJCT …; see engine/iso-status.ts). */
  readonly isoStatus?: string;
  /** ISO 20022 status reason code of a rejection (AM04 insufficient funds, AC04 closed account …). */
  readonly isoReason?: string;
}

/** At most this many field changes are kept per entry. */
export const MAX_CHANGES = 50;
/** Longer string values are cut to this many characters (ending in "…"). */
export const MAX_VALUE_LENGTH = 200;
/** Values of members whose name looks like a credential are never recorded. */
const SECRET_NAME = /pass(word|phrase)|secret|token|api[-_]?key|credential|^pin$|cvv|cvc/i;
export const REDACTED = '[redacted]';
const AMOUNT_POINTER = '/paymentInstruction/amount/instructedAmount';

const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The leaf-level difference between two records, in document order (keys sorted), bounded by
 * MAX_CHANGES. Objects and arrays are compared member by member; a member present on one side only
 * shows null on the other. Numbers are exact decimal strings (the instructed amount with its
 * currency's minor unit); credential-like members show "[redacted]".
 */
export function diffRecords(
  before: PaymentOrder,
  after: PaymentOrder,
): { changes: FieldChange[]; truncated: boolean } {
  const changes: FieldChange[] = [];
  let truncated = false;
  const currency = (o: PaymentOrder) => o.paymentInstruction?.amount?.instructedCurrency ?? '';
  const render = (value: unknown, pointer: string, side: PaymentOrder, secret: boolean) => {
    if (value === undefined || value === null) return null;
    if (secret) return REDACTED;
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'number')
      return pointer === AMOUNT_POINTER ? toDecimalString(value, currency(side)) : String(value);
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
  };
  const walk = (a: unknown, b: unknown, pointer: string, secret: boolean): void => {
    if (truncated) return;
    const oa = jsonObject(a);
    const ob = jsonObject(b);
    const aa = Array.isArray(a) ? (a as unknown[]) : undefined;
    const ab = Array.isArray(b) ? (b as unknown[]) : undefined;
    if ((oa || ob) && !aa && !ab && (oa || a === undefined) && (ob || b === undefined)) {
      const keys = [...new Set([...Object.keys(oa ?? {}), ...Object.keys(ob ?? {})])].sort();
      for (const key of keys)
        walk(
          oa?.[key],
          ob?.[key],
          `${pointer}/${pointerPart(key)}`,
          secret || SECRET_NAME.test(key),
        );
      return;
    }
    if ((aa || ab) && (aa || a === undefined) && (ab || b === undefined)) {
      const length = Math.max(aa?.length ?? 0, ab?.length ?? 0);
      for (let i = 0; i < length; i += 1) walk(aa?.[i], ab?.[i], `${pointer}/${i}`, secret);
      return;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (changes.length >= MAX_CHANGES) {
      truncated = true;
      return;
    }
    changes.push({
      pointer,
      before: render(a, pointer, before, secret),
      after: render(b, pointer, after, secret),
    });
  };
  walk(before, after, '', false);
  return { changes, truncated };
}

/** The members of a JSON object (the diff walks any JSON, member by member); undefined otherwise. */
function jsonObject(value: unknown): { readonly [member: string]: unknown } | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as { readonly [member: string]: unknown })
    : undefined;
}
