// Deutsche Bundesbank bank code file (Bankleitzahlendatei): fixed width, 168 characters a record, or
// 174 in the extended version with the IBAN rule (field 14). Published in ISO 8859-1; the caller
// decodes. Field positions in docs/bank-directory.md. A bank code (Bankleitzahl) is the bank code of
// German IBANs, so these records make German IBANs resolve to their bank.
import { parseBic } from '../bic.js';
import type { DirectoryEntry, ParsedFile } from '../types.js';
import { field, parseRecordLines } from './fixed-width.js';

export const BUNDESBANK_RECORD_LENGTH = 168;
export const BUNDESBANK_EXTENDED_RECORD_LENGTH = 174;

export function parseBundesbankLine(text: string): DirectoryEntry | string {
  if (
    text.length !== BUNDESBANK_RECORD_LENGTH &&
    text.length !== BUNDESBANK_EXTENDED_RECORD_LENGTH
  ) {
    return `record has ${text.length} characters, expected ${BUNDESBANK_RECORD_LENGTH} or ${BUNDESBANK_EXTENDED_RECORD_LENGTH}`;
  }
  const blz = field(text, 1, 8);
  if (!/^[1-9]\d{7}$/.test(blz)) return `bank code "${blz}" is not 8 digits`;
  const feature = field(text, 9, 9);
  if (feature !== '1' && feature !== '2') return `feature "${feature}" is not 1 or 2`;
  const name = field(text, 10, 67);
  if (name === '') return 'name is empty';
  const postal = field(text, 68, 72);
  if (postal !== '' && !/^\d{5}$/.test(postal)) return 'postal code must be 5 digits';
  const town = field(text, 73, 107);
  const shortName = field(text, 108, 134);
  const bicText = field(text, 140, 150);
  let bic: string | undefined;
  if (bicText !== '') {
    const parsed = parseBic(bicText);
    if (!parsed.ok) return `BIC: ${parsed.reason}`;
    if (parsed.value.country !== 'DE') return `BIC country ${parsed.value.country} is not DE`;
    bic = parsed.value.bic11;
  }
  const checkMethod = field(text, 151, 152);
  if (!/^[0-9A-E][0-9]$/.test(checkMethod)) {
    return `check digit method "${checkMethod}" is not two characters 00–E9`;
  }
  const recordNumber = field(text, 153, 158);
  if (!/^\d{6}$/.test(recordNumber)) return 'record number must be 6 digits';
  const change = field(text, 159, 159);
  if (!['A', 'D', 'U', 'M'].includes(change)) return `change code "${change}" is not A, D, U or M`;
  const deletion = field(text, 160, 160);
  if (deletion !== '0' && deletion !== '1') return `deletion flag "${deletion}" is not 0 or 1`;
  const successor = field(text, 161, 168);
  if (!/^\d{8}$/.test(successor)) return 'successor bank code must be 8 digits';
  return {
    source: 'bundesbank',
    key: recordNumber,
    country: 'DE',
    bankName: name,
    bankCode: blz,
    ...(bic ? { bic } : {}),
    ...(shortName && shortName !== name ? { participantName: shortName } : {}),
    officeType: feature === '1' ? 'MAIN' : 'BRANCH',
    // D: deleted in this issue of the file; deletion flag 1: announced for deletion.
    status: change === 'D' ? 'INACTIVE' : 'ACTIVE',
    transferTypes: [],
    services: [],
    networks: [],
    ...(successor !== '00000000' ? { successorBankCode: successor } : {}),
    checkMethod,
    ...(deletion === '1' ? { deletionAnnounced: true } : {}),
    address: {
      ...(town ? { townName: town } : {}),
      ...(postal ? { postalCode: postal } : {}),
    },
  };
}

export function parseBundesbank(text: string): ParsedFile {
  return parseRecordLines(text, parseBundesbankLine);
}

/** The file's bytes as text: UTF-8 when valid, else ISO 8859-1 (the published encoding). */
export function decodeBundesbank(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('latin1').decode(bytes);
  }
}
