// FedACH participant directory: fixed width, 155 characters a record (field positions in
// docs/bank-directory.md). Parsing reports every bad record with its line number and reason.
import { fedRecordCountry, parseDirectoryRoutingNumber } from '../routing-number.js';
import type { DirectoryEntry, ParsedFile } from '../types.js';
import { field, pad, parseRecordLines } from './fixed-width.js';
import { FEDACH_JSON_LAYOUT, looksLikeJson, parseFedJson } from './fed-json.js';

export const FEDACH_RECORD_LENGTH = 155;

export interface FedachRecord {
  readonly routingNumber: string;
  readonly officeCode: 'O' | 'B';
  readonly servicingFrb: string;
  readonly recordType: '0' | '1' | '2';
  /** MMDDYY */
  readonly changeDate: string;
  readonly newRoutingNumber?: string;
  readonly customerName: string;
  readonly address: string;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly zipExtension?: string;
  /** 10 digits: area code, prefix, suffix. */
  readonly phone: string;
  readonly statusCode: string;
  readonly dataViewCode?: string;
}

export function formatFedachRecord(r: FedachRecord): string {
  return [
    pad(r.routingNumber, 9),
    pad(r.officeCode, 1),
    pad(r.servicingFrb, 9),
    pad(r.recordType, 1),
    pad(r.changeDate, 6),
    pad(r.newRoutingNumber ?? '000000000', 9),
    pad(r.customerName.toUpperCase(), 36),
    pad(r.address.toUpperCase(), 36),
    pad(r.city.toUpperCase(), 20),
    pad(r.state, 2),
    pad(r.zip, 5),
    pad(r.zipExtension ?? '0000', 4),
    pad(r.phone, 10),
    pad(r.statusCode, 1),
    pad(r.dataViewCode ?? '1', 1),
    pad('', 5),
  ].join('');
}

/** MMDDYY → YYYY-MM-DD (years 70–99 are 19xx), or undefined when not a calendar date. */
export function mmddyy(value: string): string | undefined {
  if (!/^\d{6}$/.test(value)) return undefined;
  const yy = Number(value.slice(4, 6));
  const iso = `${yy >= 70 ? 1900 + yy : 2000 + yy}-${value.slice(0, 2)}-${value.slice(2, 4)}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

export function parseFedachLine(text: string): DirectoryEntry | string {
  if (text.length !== FEDACH_RECORD_LENGTH) {
    return `record has ${text.length} characters, expected ${FEDACH_RECORD_LENGTH}`;
  }
  const rtn = parseDirectoryRoutingNumber(field(text, 1, 9));
  if (!rtn.ok) return `routing number: ${rtn.reason}`;
  const office = field(text, 10, 10);
  if (office !== 'O' && office !== 'B') return `office code "${office}" is not O or B`;
  const servicing = field(text, 11, 19);
  if (!/^\d{9}$/.test(servicing)) return 'servicing FRB number must be 9 digits';
  const recordType = field(text, 20, 20);
  if (!['0', '1', '2'].includes(recordType)) return `record type "${recordType}" is not 0, 1 or 2`;
  const change = field(text, 21, 26);
  const changedOn = change === '' ? undefined : mmddyy(change);
  if (change !== '' && changedOn === undefined) return 'change date is not a valid MMDDYY date';
  const newRtn = field(text, 27, 35);
  let newRoutingNumber: string | undefined;
  if (recordType === '2') {
    const parsed = parseDirectoryRoutingNumber(newRtn);
    if (!parsed.ok) return `new routing number: ${parsed.reason}`;
    newRoutingNumber = parsed.value;
  }
  const name = field(text, 36, 71);
  if (name === '') return 'customer name is empty';
  // State, ZIP code and telephone are blank for some participants (foreign FedGlobal participants,
  // institutions without a published number): blank stays blank.
  const state = field(text, 128, 129);
  if (state !== '' && !/^[A-Z]{2}$/.test(state)) return `state code "${state}" is not two letters`;
  const zip = field(text, 130, 134);
  if (zip !== '' && !/^\d{5}$/.test(zip)) return 'zip code must be 5 digits';
  const zipExt = field(text, 135, 138);
  const phone = field(text, 139, 148);
  if (phone !== '' && !/^\d{10}$/.test(phone)) return 'telephone number must be 10 digits';
  const address = field(text, 72, 107);
  const city = field(text, 108, 127);
  const status = field(text, 149, 149);
  const services = ['ACH_CREDIT', 'ACH_DEBIT'];
  if (status === '1') services.push('ACH_GOVERNMENT');
  return {
    source: 'fedach',
    key: rtn.value,
    country: fedRecordCountry(state),
    bankName: name,
    routingNumber: rtn.value,
    officeType: office === 'O' ? 'MAIN' : 'BRANCH',
    status: recordType === '2' ? 'INACTIVE' : 'ACTIVE',
    transferTypes: ['ACH'],
    services,
    networks: ['FEDACH'],
    ...(newRoutingNumber ? { newRoutingNumber } : {}),
    servicingFrb: servicing,
    ...(changedOn ? { changedOn } : {}),
    address: {
      ...(address ? { addressLine: address } : {}),
      ...(city ? { townName: city } : {}),
      ...(state ? { countrySubDivision: state } : {}),
      ...(zip ? { postalCode: zipExt && zipExt !== '0000' ? `${zip}-${zipExt}` : zip } : {}),
      ...(phone
        ? { phoneNumber: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}` }
        : {}),
    },
  };
}

/** The fixed-width file, or its JSON form (recognised by a leading `{`). */
export function parseFedach(text: string): ParsedFile {
  if (looksLikeJson(text))
    return parseFedJson(text, 'fedACHParticipants', FEDACH_JSON_LAYOUT, parseFedachLine);
  return parseRecordLines(text, parseFedachLine);
}
