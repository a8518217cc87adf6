// The operator token check every internal operator route shares: `Authorization: Bearer <token>` against
// payments.operator.tokens (compared as SHA-256 digests in constant time); the actor recorded for the
// caller is `operator:…<last 4 of the token>`, never the token.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { maskSecret } from '../../shared/log/mask.js';
import { PaymentError } from '../domain/errors.js';
import { header } from './context.js';

const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();

/** Returns the check for `tokens`: it gives the actor of a request, or throws 401 OPERATOR_UNAUTHORIZED. */
export function operatorAuthenticator(tokens: readonly string[]): (req: FastifyRequest) => string {
  const expected = tokens.map((t) => ({ digest: digest(t), label: maskSecret(t) }));
  return (req) => {
    const auth = header(req, 'authorization') ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
    const got = token === undefined ? undefined : digest(token);
    let actor: string | undefined;
    for (const e of expected)
      if (got && timingSafeEqual(e.digest, got)) actor = `operator:${e.label}`;
    if (actor === undefined) {
      throw new PaymentError('OPERATOR_UNAUTHORIZED', 'A valid operator token is required.');
    }
    return actor;
  };
}
