// The subject rule: the `sub` of a user token becomes the identity every backend acts on (forwarded as
// `X-User-Id`, or as an assertion's `sub`). It must reach the backend exactly as the gateway saw it.
// HTTP parsers trim leading and trailing whitespace from header values, so `"alice "` would arrive as
// `"alice"` and act as another user; control characters and non-ASCII text cannot travel unchanged in
// a header at all. Such subjects are refused, never normalised, and so is the subject that backends read
// as "no user" (`anonymous`, any case).
import { AuthError } from './errors.js';

export const MAX_SUBJECT_LENGTH = 512;

/** Visible ASCII, single spaces allowed inside but not at either end. */
const PORTABLE_SUBJECT = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** Returns the subject when a backend will receive it unchanged; otherwise throws an AuthError. */
export function checkSubject(sub: unknown): string {
  if (typeof sub !== 'string' || sub.length === 0)
    throw new AuthError('CLAIM_MISSING', 'the "sub" claim is missing or empty');
  if (sub.length > MAX_SUBJECT_LENGTH)
    throw new AuthError('CLAIM_INVALID', 'the "sub" claim is too long');
  if (!PORTABLE_SUBJECT.test(sub))
    throw new AuthError(
      'SUBJECT_INVALID',
      'the "sub" claim must be visible ASCII without leading or trailing whitespace',
    );
  if (sub.toLowerCase() === 'anonymous')
    throw new AuthError(
      'SUBJECT_INVALID',
      'the "sub" claim is reserved for callers without a user',
    );
  return sub;
}
