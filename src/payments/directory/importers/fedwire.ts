// Fedwire participant directory: fixed width, 101 characters a record (field positions in
// docs/bank-directory.md).
import { fedRecordCountry, parseDirectoryRoutingNumber } from '../routing-number.js';
import type { DirectoryEntry, ParsedFile } from '../types.js';
import { field, pad, parseRecordLines } from './fixed-width.js';
import { FEDWIRE_JSON_LAYOUT, looksLikeJson, parseFedJson } from './fed-json.js';

export const FEDWIRE_RECORD_LENGTH = 101;

export interface FedwireRecord {
  readonly routingNumber: string;
  readonly telegraphicName: string;
  readonly customerName: string;
  readonly state: string;
  readonly city: string;
  readonly fundsTransfer: 'Y' | 'N';
  readonly settlementOnly: 'S' | ' ';
  readonly bookEntrySecurities: 'Y' | 'N';
  /** YYYYMMDD */
  readonly revisionDate: string;
}

export function formatFedwireRecord(r: FedwireRecord): string {
  return [
    pad(r.routingNumber, 9),
    pad(r.telegraphicName.toUpperCase(), 18),
    pad(r.customerName.toUpperCase(), 36),
    pad(r.state, 2),
    pad(r.city.toUpperCase(), 25),
    pad(r.fundsTransfer, 1),
    pad(r.settlementOnly, 1),
    pad(r.bookEntrySecurities, 1),
    pad(r.revisionDate, 8),
  ].join('');
}

function yyyymmdd(value: string): string | undefined {
  if (!/^\d{8}$/.test(value)) return undefined;
  const iso = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

/**
 * Transfer types from the three Fedwire flags, kept apart (docs/decisions.md, D-188):
 * funds transfer "Y" without settlement-only → WIRE; funds transfer "Y" with settlement-only "S" →
 * WIRE_SETTLEMENT_ONLY (no customer wires); book-entry securities "Y" → BOOK_ENTRY_SECURITIES.
 */
export function fedwireTransferTypes(
  funds: string,
  settlement: string,
  securities: string,
): string[] {
  const types: string[] = [];
  if (funds === 'Y') types.push(settlement === 'S' ? 'WIRE_SETTLEMENT_ONLY' : 'WIRE');
  if (securities === 'Y') types.push('BOOK_ENTRY_SECURITIES');
  return types;
}

export function parseFedwireLine(text: string): DirectoryEntry | string {
  if (text.length !== FEDWIRE_RECORD_LENGTH) {
    return `record has ${text.length} characters, expected ${FEDWIRE_RECORD_LENGTH}`;
  }
  const rtn = parseDirectoryRoutingNumber(field(text, 1, 9));
  if (!rtn.ok) return `routing number: ${rtn.reason}`;
  const telegraphic = field(text, 10, 27);
  const name = field(text, 28, 63);
  if (name === '') return 'customer name is empty';
  // Blank for foreign (FedGlobal) participants and some territories: stays blank.
  const state = field(text, 64, 65);
  if (state !== '' && !/^[A-Z]{2}$/.test(state)) return `state code "${state}" is not two letters`;
  const city = field(text, 66, 90);
  const funds = text.charAt(90);
  const settlement = text.charAt(91);
  const securities = text.charAt(92);
  if (funds !== 'Y' && funds !== 'N') return `funds transfer status "${funds}" is not Y or N`;
  if (settlement !== 'S' && settlement !== ' ') {
    return `settlement-only status "${settlement}" is not S or blank`;
  }
  if (securities !== 'Y' && securities !== 'N') {
    return `book-entry securities status "${securities}" is not Y or N`;
  }
  // The published file leaves the revision date blank for records never revised.
  const revision = field(text, 94, 101);
  const changedOn = revision === '' ? undefined : yyyymmdd(revision);
  if (revision !== '' && changedOn === undefined) {
    return 'revision date is not a valid YYYYMMDD date';
  }
  const services: string[] = [];
  if (funds === 'Y') services.push('FUNDS_TRANSFER');
  if (settlement === 'S') services.push('SETTLEMENT_ONLY');
  if (securities === 'Y') services.push('BOOK_ENTRY_SECURITIES');
  return {
    source: 'fedwire',
    key: rtn.value,
    country: fedRecordCountry(state),
    bankName: name,
    routingNumber: rtn.value,
    ...(telegraphic ? { participantName: telegraphic } : {}),
    status: funds === 'Y' || securities === 'Y' ? 'ACTIVE' : 'INACTIVE',
    transferTypes: fedwireTransferTypes(funds, settlement, securities),
    services,
    networks: ['FEDWIRE'],
    ...(changedOn ? { changedOn } : {}),
    address: {
      ...(city ? { townName: city } : {}),
      ...(state ? { countrySubDivision: state } : {}),
    },
  };
}

/** The fixed-width file, or its JSON form (recognised by a leading `{`). */
export function parseFedwire(text: string): ParsedFile {
  if (looksLikeJson(text))
    return parseFedJson(text, 'fedwireParticipants', FEDWIRE_JSON_LAYOUT, parseFedwireLine);
  return parseRecordLines(text, parseFedwireLine);
}
