// The admin plane's one error type: a stable code, its HTTP status (docs/errors.md, "Admin API") and, for
// validation failures, the fields at fault. Services throw it; the HTTP edge renders it as problem+json.
import type { FieldProblem } from '../../shared/json-schema/field-problems.js';
import { SubscriptionError } from '../auth/subscriptions/types.js';

export type { FieldProblem };

export type AdminErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'VALIDATION_FAILED'
  | 'APPLICATION_NAME_TAKEN'
  | 'REQUEST_NOT_PENDING'
  | 'REQUEST_NOT_APPROVED'
  | 'NOT_REQUESTER'
  | 'KEYS_ALREADY_COLLECTED'
  | 'SUBSCRIPTION_REVOKED'
  | 'BOOTSTRAP_TOKEN_CONFIGURED'
  | 'UNKNOWN_TOOL'
  | 'TOOL_SETTINGS_INVALID'
  | 'IDP_SETTINGS_INVALID'
  | 'IDP_NO_PREVIOUS_VERSION'
  | 'POLICY_INVALID'
  | 'POLICY_VERSION_CONFLICT'
  | 'POLICY_VERSION_REQUIRED'
  | 'NOT_APPROVER'
  | 'APPROVAL_NOT_PENDING'
  | 'APPROVAL_EXPIRED';

export const ADMIN_ERROR_STATUS: Readonly<Record<AdminErrorCode, number>> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION_FAILED: 400,
  APPLICATION_NAME_TAKEN: 409,
  REQUEST_NOT_PENDING: 409,
  REQUEST_NOT_APPROVED: 409,
  NOT_REQUESTER: 403,
  KEYS_ALREADY_COLLECTED: 409,
  SUBSCRIPTION_REVOKED: 409,
  BOOTSTRAP_TOKEN_CONFIGURED: 409,
  UNKNOWN_TOOL: 404,
  TOOL_SETTINGS_INVALID: 422,
  IDP_SETTINGS_INVALID: 422,
  IDP_NO_PREVIOUS_VERSION: 409,
  POLICY_INVALID: 422,
  POLICY_VERSION_CONFLICT: 412,
  POLICY_VERSION_REQUIRED: 428,
  NOT_APPROVER: 403,
  APPROVAL_NOT_PENDING: 409,
  APPROVAL_EXPIRED: 409,
};

/**
 * A problem with one field as a service states it: the dotted path (`owner.email`, `tools.2`; "" for the
 * whole body) and the message; the pointer follows from the path, the code defaults to the error's.
 */
export type FieldInput = Pick<FieldProblem, 'field' | 'message'> & Partial<FieldProblem>;

export class AdminError extends Error {
  /** Every field at fault, each with its pointer and code (rendered as problem+json `errors`). */
  readonly fields: readonly FieldProblem[];

  constructor(
    readonly code: AdminErrorCode,
    message: string,
    fields: readonly FieldInput[] = [],
  ) {
    super(message);
    this.name = 'AdminError';
    this.fields = fields.map((f) => fieldProblem(f, code));
  }

  get status(): number {
    return ADMIN_ERROR_STATUS[this.code];
  }
}

/** A field problem with its pointer and code (`code` when the input names none). */
export function fieldProblem(input: FieldInput, code: string): FieldProblem {
  return {
    field: input.field,
    pointer: input.pointer ?? pointerOf(input.field),
    code: input.code ?? code,
    message: input.message,
  };
}

function pointerOf(field: string): string {
  return field === ''
    ? ''
    : field
        .split('.')
        .map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`)
        .join('');
}

export function validationError(field: string, message: string): AdminError {
  return new AdminError('VALIDATION_FAILED', `${field}: ${message}`, [{ field, message }]);
}

/** The subscription store's refusals in the admin plane's terms. */
export function fromSubscriptionError(error: unknown): unknown {
  if (!(error instanceof SubscriptionError)) return error;
  switch (error.code) {
    case 'SUBSCRIPTION_NOT_FOUND':
      return new AdminError('NOT_FOUND', error.message);
    case 'SUBSCRIPTION_REVOKED':
      return new AdminError('SUBSCRIPTION_REVOKED', error.message);
    case 'KEYS_ALREADY_ISSUED':
      return new AdminError('KEYS_ALREADY_COLLECTED', error.message);
    case 'INVALID_ARGUMENT':
      return new AdminError('VALIDATION_FAILED', error.message, [
        { field: '', message: error.message },
      ]);
  }
}

/** Runs `work`, translating subscription-store refusals (see fromSubscriptionError). */
export async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw fromSubscriptionError(error);
  }
}

export function requireAdmin(actor: { readonly role: string }): void {
  if (actor.role !== 'admin' && actor.role !== 'system')
    throw new AdminError('FORBIDDEN', 'this action needs the admin role');
}
