// Signs short-lived identity assertions the gateway forwards to backends (forwarding mode
// `assertion`): iss = gateway URL, aud = backend, sub = user id, plus forwarded user claims.
import { randomUUID } from 'node:crypto';
import { SignJWT, type JWK } from 'jose';
import { AuthError } from '../jwt/errors.js';
import { loadSigningKey, publicJwksOf, type SigningKeyOptions } from './signing-key.js';

export const ASSERTION_TYP = 'identity-assertion+jwt';
export const MAX_ASSERTION_TTL_SECONDS = 300;
const RESERVED = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

export interface SignAssertionInput {
  /** The backend the assertion is meant for. */
  audience: string;
  subject: string;
  claims?: Record<string, unknown>;
  /** Default 60, at most 300. */
  ttlSeconds?: number;
  /** The gateway's public URL. */
  issuer: string;
}

export interface AssertionSigner {
  readonly kid: string;
  readonly alg: string;
  signAssertion(input: SignAssertionInput): Promise<string>;
  publicJwks(): { keys: JWK[] };
}

export async function createAssertionSigner(
  options: SigningKeyOptions & { clock?: () => number } = {},
): Promise<AssertionSigner> {
  const key = await loadSigningKey(options);
  const clock = options.clock ?? Date.now;
  return {
    kid: key.kid,
    alg: key.alg,
    async signAssertion(input) {
      const ttl = input.ttlSeconds ?? 60;
      if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_ASSERTION_TTL_SECONDS)
        throw new AuthError(
          'CONFIG_INVALID',
          `assertion ttlSeconds must be 1..${MAX_ASSERTION_TTL_SECONDS}`,
        );
      if (input.subject.length === 0) throw new AuthError('CLAIM_MISSING', 'subject is empty');
      const extra = Object.fromEntries(
        Object.entries(input.claims ?? {}).filter(([name]) => !RESERVED.has(name)),
      );
      const now = Math.floor(clock() / 1000);
      return new SignJWT(extra)
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: ASSERTION_TYP })
        .setIssuer(input.issuer)
        .setAudience(input.audience)
        .setSubject(input.subject)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + ttl)
        .setJti(randomUUID())
        .sign(key.privateKey);
    },
    publicJwks: () => publicJwksOf(key),
  };
}
