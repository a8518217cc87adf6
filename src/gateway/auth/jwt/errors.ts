// The single error type of the authentication library. `code` is stable and documented in
// docs/errors.md; `message` is safe to show a client: it never contains the token or a key.

export type AuthErrorCode =
  | 'TOKEN_MISSING'
  | 'TOKEN_MALFORMED'
  | 'TOKEN_TOO_LARGE'
  | 'SCHEME_NOT_BEARER'
  | 'ALG_NOT_ALLOWED'
  | 'CRIT_UNSUPPORTED'
  | 'KEY_NOT_FOUND'
  | 'SIGNATURE_INVALID'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_NOT_YET_VALID'
  | 'TOKEN_LIFETIME_EXCEEDED'
  | 'CLAIM_MISSING'
  | 'CLAIM_INVALID'
  | 'SUBJECT_INVALID'
  | 'AUDIENCE_MISMATCH'
  | 'ISSUER_MISMATCH'
  | 'TYPE_MISMATCH'
  | 'JWKS_UNAVAILABLE'
  | 'INSECURE_URL'
  | 'CONFIG_INVALID';

export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isAuthError(value: unknown): value is AuthError {
  return value instanceof AuthError;
}
