// The end user of a request: who a verified user token says is calling. One shape from the token verifier
// (auth/jwt/verify.ts) to the caller (caller.ts), read by quotas, the security class, identity forwarding
// and the admin plane. A caller without a user has none (null); backends then see ANONYMOUS_SUBJECT.

export interface VerifiedUser {
  /** The token's `sub`, exactly as signed (auth/jwt/subject.ts). */
  readonly subject: string;
  readonly claims: Readonly<Record<string, unknown>>;
  /** The token's `exp` claim (seconds since the epoch). */
  readonly expiresAt: number;
  /** Hex SHA-256 of the token: a log-safe reference. */
  readonly tokenHash: string;
}

/** The subject backends see for a caller without a user (`X-User-Id: anonymous`, the assertion's `sub`). */
export const ANONYMOUS_SUBJECT = 'anonymous';
