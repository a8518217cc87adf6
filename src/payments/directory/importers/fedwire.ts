// Fedwire participant directory: fixed width, 101 characters a record (field positions in
// docs/bank-directory.md).
import { parseRoutingNumber } from '../routing-number.js';
import type { DirectoryEntry, ParsedFile, SkippedRecord, SourcedEntry } from '../types.js';
import { field, isBlank, lines, pad } from './fixed-width.js';

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

export function parseFedwireLine(text: string): DirectoryEntry | string {
  if (text.length !== FEDWIRE_RECORD_LENGTH) {
    return `record has ${text.length} characters, expected ${FEDWIRE_RECORD_LENGTH}`;
  }
  const rtn = parseRoutingNumber(field(text, 1, 9));
  if (!rtn.ok) return `routing number: ${rtn.reason}`;
  const telegraphic = field(text, 10, 27);
  const name = field(text, 28, 63);
  if (name === '') return 'customer name is empty';
  const state = field(text, 64, 65);
  if (!/^[A-Z]{2}$/.test(state)) return `state code "${state}" is not two letters`;
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
  const changedOn = yyyymmdd(field(text, 94, 101));
  if (changedOn === undefined) return 'revision date is not a valid YYYYMMDD date';
  const services: string[] = [];
  if (funds === 'Y') services.push('FUNDS_TRANSFER');
  if (settlement === 'S') services.push('SETTLEMENT_ONLY');
  if (securities === 'Y') services.push('BOOK_ENTRY_SECURITIES');
  return {
    source: 'fedwire',
    key: rtn.value.routingNumber,
    country: 'US',
    bankName: name,
    routingNumber: rtn.value.routingNumber,
    ...(telegraphic ? { participantName: telegraphic } : {}),
    status: funds === 'Y' || securities === 'Y' ? 'ACTIVE' : 'INACTIVE',
    transferTypes: funds === 'Y' ? ['WIRE'] : [],
    services,
    networks: ['FEDWIRE'],
    changedOn,
    address: { townName: city, countrySubDivision: state },
  };
}

export function parseFedwire(text: string): ParsedFile {
  const entries: SourcedEntry[] = [];
  const skipped: SkippedRecord[] = [];
  for (const { line, text: record } of lines(text)) {
    if (isBlank(record)) continue;
    const result = parseFedwireLine(record);
    if (typeof result === 'string') skipped.push({ line, reason: result });
    else entries.push({ line, entry: result });
  }
  return { entries, skipped };
}
