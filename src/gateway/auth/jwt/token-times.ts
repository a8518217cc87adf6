// Bounds on a user token's time claims beyond jose's exp/nbf checks (RFC 8725 §3.10 asks validators to
// reject tokens that cannot be meant for them; a token from the future or one valid for decades is such a
// token, whether minted by a compromised signer or a misconfigured client).
import type { JWTPayload } from 'jose';
import { AuthError } from './errors.js';

export interface TokenTimeRules {
  readonly clockToleranceSeconds: number;
  /** Longest accepted `exp - iat` (or `exp - now` for tokens without `iat`); undefined: no bound. */
  readonly maxTokenLifetimeSeconds: number | undefined;
}

/** Throws when `iat` lies in the future or the token lives longer than allowed. `now` in seconds. */
export function checkTokenTimes(payload: JWTPayload, now: number, rules: TokenTimeRules): void {
  const { iat, exp } = payload;
  if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat)))
    throw new AuthError('CLAIM_INVALID', 'the "iat" claim is invalid');
  if (iat !== undefined && iat > now + rules.clockToleranceSeconds)
    throw new AuthError('TOKEN_NOT_YET_VALID', 'the token was issued in the future ("iat")');
  const max = rules.maxTokenLifetimeSeconds;
  if (max === undefined || typeof exp !== 'number') return;
  const lifetime = exp - (iat ?? now);
  if (lifetime > max + rules.clockToleranceSeconds)
    throw new AuthError(
      'TOKEN_LIFETIME_EXCEEDED',
      `the token is valid for longer than ${max} seconds (exp - iat)`,
    );
}
