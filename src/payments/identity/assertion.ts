// Mechanism `assertion`: the gateway sends a short-lived JWT it signed (header X-Toolgate-Identity) whose
// subject is the user ("anonymous" for anonymous callers). Verified with the gateway's published JWKS:
// issuer = the gateway, audience = this service, typ = identity-assertion+jwt, asymmetric algorithms only,
// bounded age. Any X-User-* / X-Toolgate-* header without a valid assertion is a spoof attempt (401).
// The payment service does not import gateway code: this is the backend's own, independent check.
import type { FastifyRequest } from 'fastify';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { PaymentError } from '../domain/errors.js';
import { ANONYMOUS, isUserId, type Identity, type IdentityResolver } from './types.js';

export const ASSERTION_HEADER = 'x-toolgate-identity';
const ASSERTION_TYP = 'identity-assertion+jwt';
const ALGORITHMS = ['ES256', 'EdDSA', 'RS256', 'PS256'];
const MAX_ASSERTION_BYTES = 8192;

export interface AssertionSettings {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksUrl: string;
  readonly maxAgeSeconds: number;
}

export function createAssertionResolver(
  settings: AssertionSettings,
  keys?: JWTVerifyGetKey,
): IdentityResolver {
  const getKey =
    keys ??
    createRemoteJWKSet(new URL(settings.jwksUrl), {
      timeoutDuration: 3000,
      cooldownDuration: 30000,
      cacheMaxAge: 600000,
    });
  return {
    async resolve(req: FastifyRequest): Promise<Identity> {
      const raw = req.headers[ASSERTION_HEADER];
      const token = Array.isArray(raw) ? raw[0] : raw;
      const claimed = Object.keys(req.headers).some(
        (h) => h.startsWith('x-user-') || h.startsWith('x-toolgate-'),
      );
      if (token === undefined) {
        if (claimed)
          throw rejected(
            'Identity headers are only accepted with a valid gateway identity assertion.',
          );
        return ANONYMOUS;
      }
      if (token.length > MAX_ASSERTION_BYTES)
        throw rejected('The identity assertion is too large.');
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, getKey, {
          issuer: settings.issuer,
          audience: settings.audience,
          typ: ASSERTION_TYP,
          algorithms: ALGORITHMS,
          maxTokenAge: settings.maxAgeSeconds,
          requiredClaims: ['sub', 'exp', 'iat'],
          clockTolerance: 5,
        }));
      } catch {
        throw rejected('The identity assertion is invalid or expired.');
      }
      const userId = payload.sub;
      if (userId === 'anonymous') return ANONYMOUS;
      if (typeof userId !== 'string' || !isUserId(userId))
        throw rejected('The identity assertion names an invalid subject.');
      const claims: Record<string, string> = { sub: userId };
      if (typeof payload.email === 'string') claims.email = payload.email;
      const application = typeof payload.app === 'string' ? payload.app : undefined;
      return {
        kind: 'user',
        userId,
        claims,
        ...(application !== undefined ? { application } : {}),
      };
    },
  };
}

function rejected(message: string): PaymentError {
  return new PaymentError('IDENTITY_REJECTED', message);
}
