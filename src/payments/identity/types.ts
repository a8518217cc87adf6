// Who is calling the payment service. The service never trusts identity headers by themselves: one
// configured mechanism (see resolver.ts) vouches for them.
import type { FastifyRequest } from 'fastify';

export type Identity =
  | {
      readonly kind: 'user';
      readonly userId: string;
      readonly claims: Readonly<Record<string, string>>;
      readonly application?: string;
    }
  | { readonly kind: 'anonymous' };

export interface IdentityResolver {
  /** Resolves the caller; throws PaymentError IDENTITY_REJECTED for spoofed identity headers. */
  resolve(req: FastifyRequest): Promise<Identity>;
}

export const ANONYMOUS: Identity = Object.freeze({ kind: 'anonymous' });

/**
 * A user id as the service stores and compares it (exactly, byte for byte): 1–512 characters of visible
 * ASCII, inner spaces allowed, none at either end. A subject outside this rule is refused, never trimmed
 * or otherwise normalised into another user's id.
 */
export function isUserId(value: string): boolean {
  return value.length <= 512 && /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);
}
