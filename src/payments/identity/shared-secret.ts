// Mechanism `shared-secret`: the gateway sends `X-Toolgate-Gateway-Key: <secret>` with the identity
// headers `X-User-Id` (subject, or "anonymous"), optional `X-Toolgate-Application` and forwarded claims
// as `X-User-<Claim>` headers (e.g. `X-User-Email` → claims.email). Every `X-User-*` / `X-Toolgate-*`
// header counts as an identity claim.
//  - identity headers without a valid gateway key → 401 (a direct caller claiming to be someone);
//  - no identity headers at all → anonymous;
//  - `X-User-Id: anonymous` with a valid key → anonymous.
// Secrets are compared in constant time (SHA-256 digests of equal length, timingSafeEqual).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { PaymentError } from '../domain/errors.js';
import { ANONYMOUS, isUserId, type Identity, type IdentityResolver } from './types.js';

export const GATEWAY_KEY_HEADER = 'x-toolgate-gateway-key';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function createSharedSecretResolver(secrets: readonly string[]): IdentityResolver {
  const expected = secrets.map(digest);
  const keyIsValid = (presented: string | undefined) => {
    if (presented === undefined || expected.length === 0) return false;
    const got = digest(presented);
    let ok = false;
    for (const e of expected) ok = timingSafeEqual(e, got) || ok;
    return ok;
  };
  return {
    async resolve(req: FastifyRequest): Promise<Identity> {
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      const claimed = Object.keys(req.headers).some(
        (h) => h.startsWith('x-user-') || (h.startsWith('x-toolgate-') && h !== GATEWAY_KEY_HEADER),
      );
      const key = header(GATEWAY_KEY_HEADER);
      if (!claimed && key === undefined) return ANONYMOUS;
      if (!keyIsValid(key)) {
        throw new PaymentError(
          'IDENTITY_REJECTED',
          'Identity headers are only accepted from the gateway (missing or invalid gateway key).',
        );
      }
      const userId = header('x-user-id');
      if (userId === undefined || userId === 'anonymous') return ANONYMOUS;
      if (!isUserId(userId)) {
        throw new PaymentError('IDENTITY_REJECTED', 'X-User-Id is not a valid subject.');
      }
      const claims: Record<string, string> = { sub: userId };
      for (const name of Object.keys(req.headers)) {
        const value = header(name);
        if (name.startsWith('x-user-') && name !== 'x-user-id' && value !== undefined) {
          claims[name.slice('x-user-'.length)] = value;
        }
      }
      const application = header('x-toolgate-application');
      return {
        kind: 'user',
        userId,
        claims,
        ...(application !== undefined ? { application } : {}),
      };
    },
  };
}
