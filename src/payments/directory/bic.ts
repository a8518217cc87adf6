// ISO 9362 business identifier codes: 4 letters institution, 2 letters country, 2 alphanumerics location,
// optional 3 alphanumerics branch ("XXX" = head office, the same as the 8-character form).
import { malformed, ok, type Parsed } from './parse-result.js';
import { isKnownCountry } from './countries.js';

export interface Bic {
  /** Always 11 characters (head office padded with XXX). */
  readonly bic11: string;
  readonly bic8: string;
  readonly institution: string;
  readonly country: string;
  readonly location: string;
  /** undefined for a head office. */
  readonly branch: string | undefined;
  /** Location codes ending in 0 mark test and training BICs. */
  readonly test: boolean;
}

export function parseBic(input: string): Parsed<Bic> {
  const value = input.trim().toUpperCase();
  if (value.length !== 8 && value.length !== 11) {
    return malformed('BAD_LENGTH', `a BIC has 8 or 11 characters, not ${value.length}`);
  }
  if (!/^[A-Z0-9]+$/.test(value)) {
    return malformed('BAD_CHARACTERS', 'a BIC has letters and digits only');
  }
  if (!/^[A-Z]{6}/.test(value)) {
    return malformed('BAD_FORMAT', 'the institution and country codes (first 6) must be letters');
  }
  const country = value.slice(4, 6);
  if (!isKnownCountry(country)) {
    return malformed('BAD_COUNTRY', `${country} is not an ISO 3166 country code`);
  }
  const branchPart = value.length === 11 ? value.slice(8) : 'XXX';
  const location = value.slice(6, 8);
  return ok({
    bic11: value.slice(0, 8) + branchPart,
    bic8: value.slice(0, 8),
    institution: value.slice(0, 4),
    country,
    location,
    branch: branchPart === 'XXX' ? undefined : branchPart,
    test: location.endsWith('0'),
  });
}
