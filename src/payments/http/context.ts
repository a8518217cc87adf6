// What the payment routes share: the compiled validator, the identity resolver, the idempotency store
// and small helpers to turn PaymentErrors into problems and read the common headers.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DirectoryModes } from '../../config/payments-directory.js';
import type { Database } from '../../shared/db/types.js';
import { problem, sendProblem, type ProblemFieldError } from '../../shared/http/problem.js';
import { PaymentError, type FieldProblem } from '../domain/errors.js';
import type { Identity, IdentityResolver } from '../identity/types.js';
import type { operations } from '../openapi/payment-order.generated.js';
import type {
  IdempotencyRequest,
  IdempotencyStore,
  IdempotentOutcome,
} from '../storage/idempotency.js';
import type { AcceptanceSettings } from '../usecases/acceptance.js';
import type { OperationValidator } from './validation.js';

export interface PaymentsContext {
  readonly db: Database;
  readonly validator: OperationValidator;
  readonly identity: IdentityResolver;
  readonly idempotency: IdempotencyStore;
  readonly now: () => Date;
  /** Rates, rail calendars and the duplicate window that acceptance checks need (issue 26). */
  readonly acceptance?: AcceptanceSettings | undefined;
  /** Refuse, warn or off per bank-directory check at acceptance (payments.directory.acceptance). */
  readonly directoryModes?: DirectoryModes | undefined;
}

export function sendPaymentError(reply: FastifyReply, error: PaymentError): FastifyReply {
  if (error.status === 401) reply.header('WWW-Authenticate', 'Bearer');
  if (error.code === 'IDEMPOTENCY_IN_PROGRESS') reply.header('Retry-After', '1');
  return sendProblem(reply, {
    ...problem(error.status, error.code, error.message, error.errors?.map(toProblemField)),
    ...error.extensions,
  });
}

/** A field problem of the domain as a problem's `errors` entry (the ISO 20022 reason, when it has one). */
function toProblemField({ pointer, code, reason, message }: FieldProblem): ProblemFieldError {
  return { pointer, code, ...(reason !== undefined ? { reason } : {}), message };
}

type Operation = keyof operations;
type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** What a request of the operation carries once checked, typed as the OpenAPI document declares it. */
export interface CheckedRequest<Op extends Operation> {
  readonly body: undefined extends operations[Op]['requestBody']
    ? JsonContent<NonNullable<operations[Op]['requestBody']>> | undefined
    : JsonContent<operations[Op]['requestBody']>;
  readonly query: NonNullable<operations[Op]['parameters']['query']>;
}

/**
 * Checks the request against the operation of the payment-order document (400 otherwise) and returns its
 * body and query: the one place a payment request's JSON becomes typed (the document's schema, which
 * the check applied, is what the types were generated from).
 */
export function checkedRequest<Op extends Operation>(
  ctx: PaymentsContext,
  operationId: Op,
  req: FastifyRequest,
): CheckedRequest<Op> {
  checkRequest(ctx, operationId, req);
  return { body: req.body, query: req.query } as CheckedRequest<Op>;
}

/** Throws the 400 problem when the request does not match the operation in the OpenAPI document. */
export function checkRequest(ctx: PaymentsContext, operationId: string, req: FastifyRequest): void {
  const errors: ProblemFieldError[] = ctx.validator.validate(operationId, {
    body: req.body,
    headers: req.headers,
    query: req.query,
    params: req.params,
  });
  errors.push(...idempotencyHeaderErrors(req));
  if (errors.length > 0) {
    throw new PaymentError(
      'VALIDATION_FAILED',
      `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`,
      errors,
    );
  }
}

export function requireUser(identity: Identity): Extract<Identity, { kind: 'user' }> {
  if (identity.kind !== 'user') {
    throw new PaymentError('UNAUTHENTICATED', 'This operation needs a signed-in user.');
  }
  return identity;
}

export function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

const KEY = /^[!-~]{1,255}$/;

function idempotencyHeaderErrors(req: FastifyRequest): ProblemFieldError[] {
  const primary = header(req, 'idempotent-request-key');
  const synonym = header(req, 'idempotency-key');
  const errors: ProblemFieldError[] = [];
  if (synonym !== undefined && !KEY.test(synonym)) {
    errors.push({
      pointer: '/header/Idempotency-Key',
      code: 'INVALID_FORMAT',
      message: 'must be 1 to 255 visible ASCII characters',
    });
  }
  if (primary !== undefined && synonym !== undefined && primary !== synonym) {
    errors.push({
      pointer: '/header/Idempotency-Key',
      code: 'CONFLICTING_FIELDS',
      message: 'differs from Idempotent-Request-Key; send one of them',
    });
  }
  return errors;
}

/** The idempotency claim for this request, or undefined when the client sent no key. */
export function idempotencyFor(
  req: FastifyRequest,
  caller: string,
  path: string,
  body: unknown,
): IdempotencyRequest | undefined {
  const key = header(req, 'idempotent-request-key') ?? header(req, 'idempotency-key');
  if (key === undefined) return undefined;
  const material = canonicalJson({
    body: body ?? null,
    usedMechanism: header(req, 'used-mechanism') ?? null,
  });
  return {
    scope: `${caller} ${req.method} ${path}`,
    key,
    fingerprint: createHash('sha256').update(material).digest('base64url'),
  };
}

/** JSON with object keys sorted at every level: equal documents give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome): FastifyReply {
  const { response } = outcome;
  for (const [name, value] of Object.entries(response.headers ?? {})) reply.header(name, value);
  if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.code(response.statusCode).send(response.body);
}
