// Parses an `Authorization` header value (RFC 6750 §2.1, RFC 9110 §11.6.2).
import { AuthError } from './errors.js';

/**
 * Missing header → null. Scheme other than Bearer (case-insensitive) → SCHEME_NOT_BEARER.
 * Bearer with an empty or syntactically impossible credential → TOKEN_MALFORMED.
 */
export function parseBearer(header: string | readonly string[] | undefined | null): string | null {
  if (header === undefined || header === null) return null;
  if (typeof header !== 'string') {
    // Node keeps only the first Authorization header of a request; the raw list is passed to be sure
    // that a second one (which a backend or proxy might read instead) is refused, not ignored.
    if (header.length > 1)
      throw new AuthError('TOKEN_MALFORMED', 'more than one Authorization header');
    return parseBearer(header[0]);
  }
  const value = header.trim();
  if (value === '') return null;
  const space = value.search(/[ \t]/);
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer')
    throw new AuthError('SCHEME_NOT_BEARER', 'the Authorization scheme must be Bearer');
  const token = space === -1 ? '' : value.slice(space).trim();
  if (token === '') throw new AuthError('TOKEN_MALFORMED', 'the bearer token is empty');
  // b64token per RFC 6750 §2.1.
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token))
    throw new AuthError('TOKEN_MALFORMED', 'the bearer token contains invalid characters');
  return token;
}
