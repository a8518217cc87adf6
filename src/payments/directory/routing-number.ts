// ABA routing transit numbers: 9 digits, weighted checksum (3,7,1), and a first two digits that name a
// Federal Reserve district (01–12 banks, 21–32 thrifts, 61–72 electronic, 00 government, 80 travellers'
// cheques).
import { malformed, ok, type Parsed } from './parse-result.js';

export interface RoutingNumber {
  readonly routingNumber: string;
  /** 1..12, or undefined for the government (00) and travellers' cheque (80) prefixes. */
  readonly district: number | undefined;
}

export const FEDERAL_RESERVE_DISTRICTS: readonly string[] = [
  'Boston',
  'New York',
  'Philadelphia',
  'Cleveland',
  'Richmond',
  'Atlanta',
  'Chicago',
  'St. Louis',
  'Minneapolis',
  'Kansas City',
  'Dallas',
  'San Francisco',
];

export function abaCheckDigit(first8: string): number {
  const w = [3, 7, 1, 3, 7, 1, 3, 7];
  let sum = 0;
  for (let i = 0; i < 8; i += 1) sum += Number(first8[i]) * (w[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

export function districtOfPrefix(prefix: number): number | undefined | null {
  if (prefix === 0 || prefix === 80) return undefined;
  if (prefix >= 1 && prefix <= 12) return prefix;
  if (prefix >= 21 && prefix <= 32) return prefix - 20;
  if (prefix >= 61 && prefix <= 72) return prefix - 60;
  return null;
}

/** "02 New York": the district number (two digits) and the Reserve Bank's city. */
export function formatDistrict(district: number | undefined): string | undefined {
  if (district === undefined) return undefined;
  return `${String(district).padStart(2, '0')} ${FEDERAL_RESERVE_DISTRICTS[district - 1] ?? ''}`;
}

export function parseRoutingNumber(input: string): Parsed<RoutingNumber> {
  const value = input.trim();
  if (!/^\d*$/.test(value)) {
    return malformed('BAD_CHARACTERS', 'a routing number has digits only');
  }
  if (value.length !== 9) {
    return malformed('BAD_LENGTH', `a routing number has 9 digits, not ${value.length}`);
  }
  const district = districtOfPrefix(Number(value.slice(0, 2)));
  if (district === null) {
    return malformed(
      'BAD_PREFIX',
      `prefix ${value.slice(0, 2)} is not a Federal Reserve routing symbol (00-12, 21-32, 61-72, 80)`,
    );
  }
  if (abaCheckDigit(value.slice(0, 8)) !== Number(value[8])) {
    return malformed('BAD_CHECKSUM', 'checksum digit does not match');
  }
  return ok({ routingNumber: value, district });
}

/**
 * A routing number as the Federal Reserve's own directory files carry it: 9 digits with a valid
 * checksum. The prefix is not checked: the files list numbers outside the usual district ranges
 * (Treasury numbers beginning with 15, for one) and a directory record is authoritative.
 */
export function parseDirectoryRoutingNumber(input: string): Parsed<string> {
  const parsed = parseRoutingNumber(input);
  if (parsed.ok) return ok(parsed.value.routingNumber);
  if (parsed.code !== 'BAD_PREFIX') return malformed(parsed.code, parsed.reason);
  const value = input.trim();
  return abaCheckDigit(value.slice(0, 8)) === Number(value[8])
    ? ok(value)
    : malformed('BAD_CHECKSUM', 'checksum digit does not match');
}

/** US territories and freely associated states the Fed files name by their ISO 3166 code. */
const TERRITORIES: ReadonlySet<string> = new Set(['PR', 'GU', 'VI', 'AS', 'MP', 'FM', 'MH', 'PW']);

/**
 * The country of a Federal Reserve directory record, from its state field (docs/decisions.md, D-279): a territory's own ISO 3166 code, `US` for a state or DC, and `ZZ`
 * (unknown) for a blank state — a foreign (FedGlobal) participant, for which the file names no country.
 */
export function fedRecordCountry(state: string): string {
  if (state === '') return 'ZZ';
  return TERRITORIES.has(state) ? state : 'US';
}
