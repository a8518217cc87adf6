// The outcome of parsing an identification: the normalised value, or the reason it is malformed.
export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: MalformedCode; readonly reason: string };

/** Stable codes for malformed identifications (docs/errors.md). */
export type MalformedCode =
  'BAD_LENGTH' | 'BAD_CHARACTERS' | 'BAD_CHECKSUM' | 'BAD_PREFIX' | 'BAD_COUNTRY' | 'BAD_FORMAT';

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const malformed = <T>(code: MalformedCode, reason: string): Parsed<T> => ({
  ok: false,
  code,
  reason,
});
