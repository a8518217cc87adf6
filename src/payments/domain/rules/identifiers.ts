// What kind of identifier a field holds (pure): IBANs in their electronic form, US routing numbers in
// bank references. Shared by the rules and by the normalisation of stored records.
import { electronicFormatIBAN } from 'ibantools';
import type { InvolvedParty } from '../payment-order.js';

const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** The electronic form of an IBAN as written on paper: no spaces or hyphens, upper case. */
export function electronicIban(value: string): string {
  return electronicFormatIBAN(value) ?? value;
}

/** Whether an account id is an IBAN: numberType IBAN, or no numberType and an IBAN's shape once normalised. */
export function isIbanAccount(accountId: string, numberType: string | undefined): boolean {
  const type = numberType?.toUpperCase();
  return type === 'IBAN' || (type === undefined && IBAN_SHAPE.test(electronicIban(accountId)));
}

/**
 * Whether a party's organisation identification is a US routing number (ABA): a clearing system member
 * identification of a bank in the US, or of a bank without address country when it has 9 digits.
 */
export function isUsRoutingNumber(party: InvolvedParty | undefined): boolean {
  const organisation = party?.organisationIdentification;
  if (organisation?.type !== 'CLEARING_IDENTIFICATION_NUMBER') return false;
  const country = party?.address?.country;
  const id = organisation.identificationNo ?? '';
  return country === 'US' || (country === undefined && /^\d{9}$/.test(id));
}
