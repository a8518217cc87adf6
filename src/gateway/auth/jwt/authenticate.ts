// The per-request decision the gateway makes (spec §Authentication 2, 5, 6, 8): which user is calling,
// given the configured mode, the Authorization header and whether the tool requires a user.
import { AuthError } from './errors.js';
import { parseBearer } from './bearer.js';
import type { JwtVerifier } from './verify.js';
import type { VerifiedUser } from '../user.js';

export interface AuthenticateInput {
  mode: 'conditional' | 'required' | 'anonymous';
  /** The Authorization header value, or every value the request carried (raw headers). */
  authorization: string | readonly string[] | undefined;
  /** The tool's security declaration requires the bearer scheme. */
  toolRequiresUser: boolean;
  verifier: JwtVerifier;
  /** The audiences the endpoint accepts instead of the configured one (a tool bundle's endpoint). */
  audiences?: readonly string[] | undefined;
}

/**
 * The verified user, or null for an anonymous caller.
 * anonymous mode → always anonymous (the header is ignored; a tool requiring a user is refused).
 * No header → anonymous, unless mode is `required` or the tool requires a user (TOKEN_MISSING).
 * A header → it must be a valid Bearer JWT (any AuthError → HTTP 401), whatever the tool.
 */
export async function authenticateRequest(input: AuthenticateInput): Promise<VerifiedUser | null> {
  if (input.mode === 'anonymous') {
    if (input.toolRequiresUser)
      throw new AuthError('TOKEN_MISSING', 'this tool requires a user token');
    return null;
  }
  const token = parseBearer(input.authorization);
  if (token === null) {
    if (input.mode === 'required' || input.toolRequiresUser)
      throw new AuthError('TOKEN_MISSING', 'a bearer token is required');
    return null;
  }
  return input.audiences === undefined
    ? input.verifier.verify(token)
    : input.verifier.verify(token, input.audiences);
}
