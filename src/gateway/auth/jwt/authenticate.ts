// The per-request decision the gateway makes (spec §Authentication 2, 5, 6, 8): who is calling,
// given the configured mode, the Authorization header and whether the tool requires a user.
import { AuthError } from './errors.js';
import { parseBearer } from './bearer.js';
import type { JwtVerifier, VerifiedUser } from './verify.js';

export const ANONYMOUS_USER_ID = 'anonymous';

export type RequestIdentity =
  | { kind: 'anonymous'; userId: typeof ANONYMOUS_USER_ID }
  | { kind: 'user'; userId: string; user: VerifiedUser };

export interface AuthenticateInput {
  mode: 'conditional' | 'required' | 'anonymous';
  /** The Authorization header value, or every value the request carried (raw headers). */
  authorization: string | readonly string[] | undefined;
  /** The tool's security declaration requires the bearer scheme. */
  toolRequiresUser: boolean;
  verifier: JwtVerifier;
}

/**
 * anonymous mode → always anonymous (the header is ignored; a tool requiring a user is refused).
 * No header → anonymous, unless mode is `required` or the tool requires a user (TOKEN_MISSING).
 * A header → it must be a valid Bearer JWT (any AuthError → HTTP 401), whatever the tool.
 */
export async function authenticateRequest(input: AuthenticateInput): Promise<RequestIdentity> {
  const anonymous = { kind: 'anonymous', userId: ANONYMOUS_USER_ID } as const;
  if (input.mode === 'anonymous') {
    if (input.toolRequiresUser)
      throw new AuthError('TOKEN_MISSING', 'this tool requires a user token');
    return anonymous;
  }
  const token = parseBearer(input.authorization);
  if (token === null) {
    if (input.mode === 'required' || input.toolRequiresUser)
      throw new AuthError('TOKEN_MISSING', 'a bearer token is required');
    return anonymous;
  }
  const user = await input.verifier.verify(token);
  return { kind: 'user', userId: user.subject, user };
}
