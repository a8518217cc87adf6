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
