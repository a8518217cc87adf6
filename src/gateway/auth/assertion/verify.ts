// Accepting gateway identity assertions (used by backends such as the payment service):
// audience = the backend itself, issuer = the gateway, explicit typ, short maximum age.
import { createLocalJWKSet, type JWK } from 'jose';
import { AuthError } from '../jwt/errors.js';
import { createRemoteKeySet } from '../jwt/discovery.js';
import type { FetchFn } from '../jwt/fetch-json.js';
import { publicKeySet, selectKey, type KeySource } from '../jwt/key-entry.js';
import { verifyJwtCore } from '../jwt/verify.js';
import { ASSERTION_TYP } from './sign.js';

export interface AssertionVerifierOptions {
  /** The gateway URL the assertions are issued by. */
  issuer: string;
  /** This backend's identifier. */
  audience: string;
  /** The gateway's public keys, given directly … */
  jwks?: { keys: JWK[] };
  /** … or fetched from the gateway's JWKS URL (HTTPS unless loopback). */
  jwksUrl?: string;
  /** Maximum age since `iat`; default 120 seconds. */
  maxAgeSeconds?: number;
  clockToleranceSeconds?: number;
  fetch?: FetchFn;
  clock?: () => number;
}

export interface VerifiedAssertion {
  subject: string;
  claims: Record<string, unknown>;
  expiresAt: number;
}

function localKeys(jwks: { keys: JWK[] }): KeySource {
  const set = createLocalJWKSet(publicKeySet(jwks));
  return (header) => selectKey(set, header, 'no gateway key matches the assertion');
}

export function createAssertionVerifier(options: AssertionVerifierOptions): {
  verify(token: string): Promise<VerifiedAssertion>;
} {
  const clock = options.clock ?? Date.now;
  let keys: KeySource;
  if (options.jwks) keys = localKeys(options.jwks);
  else if (options.jwksUrl)
    keys = createRemoteKeySet({
      issuer: options.issuer,
      jwksUrl: options.jwksUrl,
      timeoutMs: 5_000,
      cacheMaxAgeMs: 600_000,
      cooldownMs: 30_000,
      staleIfErrorMs: 3_600_000,
      maxResponseBytes: 65_536,
      clock,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  else throw new AuthError('CONFIG_INVALID', 'assertion verifier needs "jwks" or "jwksUrl"');

  return {
    async verify(token) {
      const payload = await verifyJwtCore(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['ES256', 'EdDSA'],
        clockToleranceSeconds: options.clockToleranceSeconds ?? 5,
        maxTokenBytes: 16_384,
        requiredClaims: ['exp', 'iat', 'sub'],
        typ: ASSERTION_TYP,
        maxTokenAgeSeconds: options.maxAgeSeconds ?? 120,
        clock,
      });
      if (typeof payload.sub !== 'string' || payload.sub === '' || typeof payload.exp !== 'number')
        throw new AuthError('CLAIM_MISSING', 'the assertion has no subject');
      return { subject: payload.sub, claims: { ...payload }, expiresAt: payload.exp };
    },
  };
}
