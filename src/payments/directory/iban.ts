// IBAN and BBAN parsing on top of ibantools: check digits (ISO 7064 mod 97-10), the country's BBAN length
// and format, national check digits where ibantools knows them, and the bank / branch codes the country
// embeds in the BBAN (German BLZ, UK sort code, French code banque + guichet …).
import {
  ValidationErrorsIBAN,
  composeIBAN,
  countrySpecs,
  electronicFormatIBAN,
  extractIBAN,
  isValidBBAN,
  validateIBAN,
} from 'ibantools';
import { malformed, ok, type Parsed } from './parse-result.js';
import { isKnownCountry } from './countries.js';

export interface AccountIdentifier {
  readonly iban: string;
  readonly country: string;
  readonly bankCode: string;
  readonly branchCode: string | undefined;
}

function ibanLength(country: string): number | undefined {
  return countrySpecs[country]?.chars;
}

export function parseIban(input: string): Parsed<AccountIdentifier> {
  const value = (electronicFormatIBAN(input) ?? '').toUpperCase();
  if (!/^[A-Z0-9]+$/.test(value)) {
    return malformed('BAD_CHARACTERS', 'an IBAN has letters and digits only (spaces are ignored)');
  }
  if (value.length < 5) return malformed('BAD_LENGTH', 'an IBAN has at least 15 characters');
  const country = value.slice(0, 2);
  const expected = ibanLength(country);
  if (!isKnownCountry(country) || expected === undefined) {
    return malformed('BAD_COUNTRY', `${country} is not a country that issues IBANs`);
  }
  const result = validateIBAN(value, { allowQRIBAN: true });
  if (!result.valid) {
    const errors = result.errorCodes;
    if (errors.includes(ValidationErrorsIBAN.WrongBBANLength) || value.length !== expected) {
      return malformed(
        'BAD_LENGTH',
        `an IBAN from ${country} has ${expected} characters, not ${value.length}`,
      );
    }
    if (errors.includes(ValidationErrorsIBAN.ChecksumNotNumber)) {
      return malformed('BAD_FORMAT', 'the check digits (characters 3-4) must be digits');
    }
    if (errors.includes(ValidationErrorsIBAN.WrongBBANFormat)) {
      return malformed('BAD_FORMAT', `the account part does not follow the ${country} format`);
    }
    if (errors.includes(ValidationErrorsIBAN.WrongIBANChecksum)) {
      return malformed('BAD_CHECKSUM', 'check digits do not match (ISO 7064 mod 97-10)');
    }
    return malformed('BAD_CHECKSUM', 'the national check digit of the account does not match');
  }
  const parts = extractIBAN(value);
  if (!parts.bankIdentifier) {
    return malformed('BAD_COUNTRY', `no bank code is defined inside ${country} IBANs`);
  }
  return ok({
    iban: value,
    country,
    bankCode: parts.bankIdentifier,
    branchCode: parts.branchIdentifier || undefined,
  });
}

export function parseBban(input: string, country: string | undefined): Parsed<AccountIdentifier> {
  if (country === undefined) {
    return malformed('BAD_COUNTRY', 'a BBAN look-up needs the country');
  }
  const expected = ibanLength(country);
  if (!isKnownCountry(country) || expected === undefined) {
    return malformed('BAD_COUNTRY', `${country} has no BBAN format (it does not issue IBANs)`);
  }
  const value = input.replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z0-9]+$/.test(value)) {
    return malformed('BAD_CHARACTERS', 'a BBAN has letters and digits only');
  }
  if (value.length !== expected - 4) {
    return malformed(
      'BAD_LENGTH',
      `a BBAN from ${country} has ${expected - 4} characters, not ${value.length}`,
    );
  }
  if (!isValidBBAN(value, country)) {
    const pattern = countrySpecs[country]?.bban_regexp;
    if (pattern && !new RegExp(pattern).test(value)) {
      return malformed('BAD_FORMAT', `the BBAN does not follow the ${country} format`);
    }
    return malformed('BAD_CHECKSUM', 'the national check digit of the account does not match');
  }
  const iban = composeIBAN({ countryCode: country, bban: value });
  if (iban === null) return malformed('BAD_FORMAT', `the BBAN is not valid for ${country}`);
  return parseIban(iban);
}

/** Builds a valid IBAN from a country and BBAN (used by the sample generator and tests). */
export function ibanFromBban(country: string, bban: string): string | undefined {
  return composeIBAN({ countryCode: country, bban }) ?? undefined;
}
