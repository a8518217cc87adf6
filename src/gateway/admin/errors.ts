// The admin plane's one error type: a code that maps to an HTTP status, a message safe to show, and the
// fields at fault for validation failures. Rendered once as application/problem+json (problem.ts);
// every code is in docs/errors.md.
export type AdminErrorCode =
  | 'VALIDATION_FAILED'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'UNKNOWN_TOOL'
  | 'TOOL_SETTINGS_INVALID'
  | 'IDP_SETTINGS_INVALID'
  | 'IDP_NO_PREVIOUS_VERSION';

export const ADMIN_ERROR_STATUS: Readonly<Record<AdminErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  UNKNOWN_TOOL: 404,
  TOOL_SETTINGS_INVALID: 422,
  IDP_SETTINGS_INVALID: 422,
  IDP_NO_PREVIOUS_VERSION: 409,
};

/** One field at fault: a dotted path into the request body or query (`settings.issuer`), and why. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

export class AdminError extends Error {
  readonly status: number;

  constructor(
    readonly code: AdminErrorCode,
    message: string,
    readonly errors: readonly FieldProblem[] = [],
    /** Extra members of the problem document (e.g. the validation report). */
    readonly extensions: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'AdminError';
    this.status = ADMIN_ERROR_STATUS[code];
  }
}
