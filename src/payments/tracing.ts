// The payment service's own spans: one INTERNAL span per use case (`payments.createPaymentOrder`, …),
// the child of the request's server span and the parent of its database spans, and one per engine
// transition (`payments.engine.transition`). Attributes are closed sets only — the use case's outcome,
// the status code it answered, the payment's status, the engine's action and ISO reason code, the
// error code — never IBANs, amounts, names, references, keys or ids. Only `@opentelemetry/api`: with no
// tracer provider the spans are no-ops, and attributes are only set on spans that record.
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { PaymentError } from './domain/errors.js';
import { PAYMENT_STATUSES } from './domain/lifecycle.js';
import type { IdempotentOutcome } from './storage/idempotency.js';

const tracer = trace.getTracer('toolgate');

/** The use cases, named after what they do (span `payments.<name>`). */
export type UseCase =
  | 'createPaymentOrder'
  | 'updatePaymentOrder'
  | 'cancelPaymentOrder'
  | 'validatePaymentOrder'
  | 'getPaymentOrder'
  | 'listPaymentOrders'
  | 'getPaymentOrderHistory'
  | 'fetchPaymentFees'
  | 'fetchBankDetails'
  | 'getAccountBalance'
  | 'getAccountTransactions';

/** How a use case ended: answered, answered from the idempotency store, refused with a code, failed. */
export type UseCaseOutcome = 'ok' | 'replayed' | 'refused' | 'error';

export const ATTR = {
  outcome: 'payments.outcome',
  statusCode: 'payments.response.status_code',
  paymentStatus: 'payments.payment.status',
  count: 'payments.result.count',
  idempotencyKey: 'payments.idempotency.key_present',
  action: 'payments.engine.action',
  from: 'payments.engine.status_from',
  to: 'payments.engine.status_to',
  steps: 'payments.engine.steps',
  isoReason: 'payments.engine.iso_reason',
} as const;

const STATUSES: ReadonlySet<string> = new Set(PAYMENT_STATUSES);
/** A code from the service's own closed vocabularies (error codes, ISO 20022 reasons): no free text. */
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The error code for `error.type`: the app's code for a PaymentError, else the error's class name. */
export function errorTypeOf(error: unknown): string {
  if (error instanceof PaymentError) return error.code;
  return error instanceof Error && CODE.test(error.name.toUpperCase()) ? error.name : '_OTHER';
}

/**
 * Runs a use case in its span (active while it runs, so its database spans are children). A thrown
 * PaymentError ends it as `refused` with `error.type` = the error's code; anything else as `error`.
 */
export function inUseCase<T>(name: UseCase, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(`payments.${name}`, { kind: SpanKind.INTERNAL }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      if (span.isRecording()) {
        const refused = error instanceof PaymentError;
        span.setAttribute(ATTR.outcome, refused ? 'refused' : 'error');
        if (refused) span.setAttribute(ATTR.statusCode, error.status);
        span.setAttribute('error.type', errorTypeOf(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw error;
    } finally {
      span.end();
    }
  });
}

/** What a use case answered, when it answered without throwing. */
export interface Answer {
  readonly statusCode: number;
  /** The payment's status in the answer (recorded only when it is one of the nine statuses). */
  readonly paymentStatus?: unknown;
  /** Items in a list answer. */
  readonly count?: number;
  /** The problem code of a refusal answered without a PaymentError (e.g. BANK_NOT_FOUND). */
  readonly errorCode?: string;
  readonly replayed?: boolean;
}

export function recordAnswer(span: Span, answer: Answer): void {
  if (!span.isRecording()) return;
  const refused = answer.statusCode >= 400;
  span.setAttribute(
    ATTR.outcome,
    answer.replayed
      ? 'replayed'
      : refused
        ? answer.statusCode >= 500
          ? 'error'
          : 'refused'
        : 'ok',
  );
  span.setAttribute(ATTR.statusCode, answer.statusCode);
  if (typeof answer.paymentStatus === 'string' && STATUSES.has(answer.paymentStatus))
    span.setAttribute(ATTR.paymentStatus, answer.paymentStatus);
  if (answer.count !== undefined) span.setAttribute(ATTR.count, answer.count);
  if (refused) {
    const code = answer.errorCode;
    span.setAttribute(
      'error.type',
      code !== undefined && CODE.test(code) ? code : String(answer.statusCode),
    );
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

/** The status field of a payment order as the API renders it (unknown shape: read defensively). */
export function paymentStatusIn(body: unknown): unknown {
  const reference = (body as { paymentInstructionReference?: unknown } | null)
    ?.paymentInstructionReference;
  return (reference as { status?: unknown } | null | undefined)?.status;
}

/** The answer of a write (create, update, cancel): stored or replayed response. */
export function recordOutcome(span: Span, outcome: IdempotentOutcome, keyPresent: boolean): void {
  if (!span.isRecording()) return;
  const { response } = outcome;
  const body = response.body as { code?: unknown } | undefined;
  recordAnswer(span, {
    statusCode: response.statusCode,
    paymentStatus: paymentStatusIn(response.body),
    replayed: outcome.replayed,
    ...(typeof body?.code === 'string' ? { errorCode: body.code } : {}),
  });
  span.setAttribute(ATTR.idempotencyKey, keyPresent);
}

/** What one engine transition did, for its span. */
export interface TransitionSummary {
  readonly steps: readonly {
    readonly from: string;
    readonly to: string;
    readonly isoReason?: string | undefined;
  }[];
}

/**
 * Runs one engine transition (claim, re-plan, post, record; one transaction) in a
 * `payments.engine.transition` span: a root span when the engine runs on its own timer, the child of
 * whatever span is active when something else asked for the run.
 */
export function inTransition<T extends TransitionSummary['steps']>(
  action: string,
  work: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    'payments.engine.transition',
    { kind: SpanKind.INTERNAL },
    async (span) => {
      try {
        const steps = await work();
        if (span.isRecording()) {
          span.setAttribute(ATTR.action, action);
          span.setAttribute(ATTR.steps, steps.length);
          // No steps: another replica had claimed the payment, or it had moved meanwhile.
          span.setAttribute(ATTR.outcome, steps.length === 0 ? 'skipped' : 'ok');
          const first = steps[0];
          const last = steps[steps.length - 1];
          if (first !== undefined && STATUSES.has(first.from))
            span.setAttribute(ATTR.from, first.from);
          if (last !== undefined && STATUSES.has(last.to)) span.setAttribute(ATTR.to, last.to);
          const reason = last?.isoReason;
          if (reason !== undefined && CODE.test(reason)) span.setAttribute(ATTR.isoReason, reason);
        }
        return steps;
      } catch (error) {
        if (span.isRecording()) {
          span.setAttribute(ATTR.action, action);
          span.setAttribute(ATTR.outcome, 'error');
          span.setAttribute('error.type', errorTypeOf(error));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
