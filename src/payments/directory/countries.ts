// Country codes known to the directory: ibantools' table covers every ISO 3166 alpha-2 code (with or
// without IBAN). Replace with the payment service's countries table once both branches meet.
import { countrySpecs } from 'ibantools';

export function isKnownCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && Object.prototype.hasOwnProperty.call(countrySpecs, code);
}
