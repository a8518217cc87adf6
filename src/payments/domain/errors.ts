// The payment service's one error class. The HTTP layer turns it into an RFC 9457 problem (see
// docs/errors.md for every code), its field problems into the problem's `errors`.
import type { PaymentStatus } from './lifecycle.js';

export type PaymentErrorCode =
  | 'VALIDATION_FAILED' // 400 schema / header / parameter problems
  | 'BUSINESS_RULE_VIOLATION' // 422 well-formed but breaks a rule (precision, IBAN, currency …)
  | 'UNAUTHENTICATED' // 401 no user identity for a user-scoped operation
  | 'IDENTITY_REJECTED' // 401 identity headers without a valid gateway key
  | 'OPERATOR_UNAUTHORIZED' // 401 operator endpoint without a valid operator token
  | 'PAYMENT_NOT_FOUND' // 404 unknown payment or not the caller's
  | 'INVALID_STATE' // 409 the status does not allow the operation / transition
  | 'PRECONDITION_FAILED' // 412 If-Match does not match the current version
  | 'CONCURRENT_UPDATE' // 409 another request changed the payment meanwhile (no If-Match sent)
  | 'IDEMPOTENCY_IN_PROGRESS' // 409 same key still being processed
  | 'IDEMPOTENCY_KEY_REUSED' // 422 same key with a different body
  | 'ACCOUNT_NOT_FOUND' // 404 accounts API: not one of the caller's accounts
  | 'DELIVERY_NOT_FOUND' // 404 operator: unknown webhook delivery
  | 'DELIVERY_IN_FLIGHT' // 409 operator: the delivery is being attempted right now
  | 'NOT_ACCEPTABLE' // 406 operator: the status report in a media type not offered
  | 'POSSIBLE_DUPLICATE'; // 409 the same order again within the window, unconfirmed (issue 26)

const STATUS: Record<PaymentErrorCode, number> = {
  VALIDATION_FAILED: 400,
  BUSINESS_RULE_VIOLATION: 422,
  UNAUTHENTICATED: 401,
  IDENTITY_REJECTED: 401,
  OPERATOR_UNAUTHORIZED: 401,
  PAYMENT_NOT_FOUND: 404,
  INVALID_STATE: 409,
  PRECONDITION_FAILED: 412,
  CONCURRENT_UPDATE: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  ACCOUNT_NOT_FOUND: 404,
  POSSIBLE_DUPLICATE: 409,
  DELIVERY_NOT_FOUND: 404,
  DELIVERY_IN_FLIGHT: 409,
  NOT_ACCEPTABLE: 406,
};

/**
 * One problem with a field of a request: where (JSON pointer into the body, or `/header/Name`,
 * `/query/name`, `/path/name`), which check or rule (stable code), and a message a person understands;
 * a broken business rule also names its ISO 20022 status reason (`reason`, e.g. AC01).
 */
export interface FieldProblem {
  readonly pointer: string;
  readonly code: string;
  readonly reason?: string;
  readonly message: string;
}

/** The problem extensions the OpenAPI document's Problem schema declares (and no others). */
export interface PaymentErrorExtensions {
  /** 409 INVALID_STATE: the status that does not allow the operation. */
  readonly paymentStatus?: PaymentStatus;
  /** 412 PRECONDITION_FAILED: the current ETag. */
  readonly currentETag?: string;
  /** 409 POSSIBLE_DUPLICATE: the earlier payment this order repeats. */
  readonly duplicateOf?: string;
}

export class PaymentError extends Error {
  readonly status: number;
  constructor(
    readonly code: PaymentErrorCode,
    message: string,
    readonly errors?: readonly FieldProblem[],
    readonly extensions?: PaymentErrorExtensions,
  ) {
    super(message);
    this.name = 'PaymentError';
    this.status = STATUS[code];
  }
}
