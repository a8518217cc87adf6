// GLEIF BIC-to-LEI relationship file (CSV: header `LEI,BIC`, one mapping a row; a BIC may map to several
// LEIs and back) joined with LEI records in the GLEIF Golden Copy CSV layout (columns `LEI`,
// `Entity.LegalName`, `Entity.LegalAddress.FirstAddressLine`, `Entity.LegalAddress.City`,
// `Entity.LegalAddress.Region`, `Entity.LegalAddress.Country`, `Entity.LegalAddress.PostalCode`,
// `Entity.EntityStatus`; other columns are ignored). Gives each BIC the legal name and address of its
// entity. Line numbers are lines of the mapping file.
import { parseBic } from '../bic.js';
import type { DirectoryEntry, ParsedFile, SkippedRecord, SourcedEntry } from '../types.js';
import { csvRows } from './csv.js';

export interface LeiRecord {
  readonly lei: string;
  readonly legalName: string;
  readonly addressLine?: string;
  readonly city?: string;
  readonly region?: string;
  readonly country?: string;
  readonly postalCode?: string;
  readonly status?: string;
  readonly registrationStatus?: string;
}

/** ISO 17442: 18 alphanumeric characters and two check digits, mod 97 (as IBAN) equal to 1. */
export function isValidLei(lei: string): boolean {
  if (!/^[A-Z0-9]{18}\d{2}$/.test(lei)) return false;
  let rest = 0;
  for (const ch of lei) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

type Table = { header: string[]; rows: { line: number; cells: string[] }[] } | string;

function table(text: string, required: readonly string[], what: string): Table {
  const rows = csvRows(text.replace(/^\uFEFF/, ''));
  const head = rows.shift();
  if (!head) return `${what} is empty`;
  const header = head.cells.map((c) => c.trim());
  const missing = required.filter((c) => !header.includes(c));
  if (missing.length > 0) return `${what} has no column ${missing.join(', ')}`;
  return { header, rows };
}

const LEI_COLUMNS = {
  lei: 'LEI',
  legalName: 'Entity.LegalName',
  addressLine: 'Entity.LegalAddress.FirstAddressLine',
  city: 'Entity.LegalAddress.City',
  region: 'Entity.LegalAddress.Region',
  country: 'Entity.LegalAddress.Country',
  postalCode: 'Entity.LegalAddress.PostalCode',
  status: 'Entity.EntityStatus',
  registrationStatus: 'Registration.RegistrationStatus',
} as const;

/** LEI records by LEI, only those in `wanted` (the Golden Copy holds millions). */
export function parseLeiRecords(
  text: string,
  wanted: ReadonlySet<string>,
): Map<string, LeiRecord> | string {
  const t = table(text, [LEI_COLUMNS.lei, LEI_COLUMNS.legalName], 'the LEI records file');
  if (typeof t === 'string') return t;
  const at = (name: string) => t.header.indexOf(name);
  const index = Object.fromEntries(
    Object.entries(LEI_COLUMNS).map(([k, c]) => [k, at(c)]),
  ) as Record<keyof typeof LEI_COLUMNS, number>;
  const out = new Map<string, LeiRecord>();
  for (const row of t.rows) {
    const get = (k: keyof typeof LEI_COLUMNS) => (row.cells[index[k]] ?? '').trim();
    const lei = get('lei').toUpperCase();
    if (!wanted.has(lei)) continue;
    const record: LeiRecord = {
      lei,
      legalName: get('legalName'),
      ...(get('addressLine') ? { addressLine: get('addressLine') } : {}),
      ...(get('city') ? { city: get('city') } : {}),
      ...(get('region') ? { region: get('region') } : {}),
      ...(get('country') ? { country: get('country').toUpperCase() } : {}),
      ...(get('postalCode') ? { postalCode: get('postalCode') } : {}),
      ...(get('status') ? { status: get('status').toUpperCase() } : {}),
      ...(get('registrationStatus')
        ? { registrationStatus: get('registrationStatus').toUpperCase() }
        : {}),
    };
    out.set(lei, record);
  }
  return out;
}

/** Registration statuses of an LEI that no longer identifies a live entity. */
export const DEAD_REGISTRATIONS: ReadonlySet<string> = new Set([
  'ANNULLED',
  'RETIRED',
  'MERGED',
  'DUPLICATE',
]);

export function parseGleif(mappingText: string, leiRecordsText: string): ParsedFile {
  const t = table(mappingText, ['LEI', 'BIC'], 'the BIC-to-LEI file');
  if (typeof t === 'string') return { entries: [], skipped: [{ line: 1, reason: t }] };
  const leiAt = t.header.indexOf('LEI');
  const bicAt = t.header.indexOf('BIC');
  const wanted = new Set(t.rows.map((r) => (r.cells[leiAt] ?? '').trim().toUpperCase()));
  const records = parseLeiRecords(leiRecordsText, wanted);
  if (typeof records === 'string') return { entries: [], skipped: [{ line: 1, reason: records }] };
  const entries: SourcedEntry[] = [];
  const skipped: SkippedRecord[] = [];
  for (const row of t.rows) {
    const lei = (row.cells[leiAt] ?? '').trim().toUpperCase();
    const result = entryOf(lei, (row.cells[bicAt] ?? '').trim(), records);
    if (typeof result === 'string') skipped.push({ line: row.line, reason: result });
    else entries.push({ line: row.line, entry: result });
  }
  return { entries, skipped };
}

function entryOf(
  lei: string,
  bicText: string,
  records: ReadonlyMap<string, LeiRecord>,
): DirectoryEntry | string {
  if (!isValidLei(lei)) return `LEI "${lei}" is not a valid LEI (ISO 17442)`;
  const bic = parseBic(bicText);
  if (!bic.ok) return `BIC: ${bic.reason}`;
  const r = records.get(lei);
  if (!r) return `LEI ${lei} is not in the LEI records file`;
  if (r.legalName === '') return `LEI ${lei} has no legal name`;
  return {
    source: 'gleif',
    key: `${bic.value.bic11}:${lei}`,
    country: bic.value.country,
    bankName: r.legalName.slice(0, 140),
    bic: bic.value.bic11,
    lei,
    // An entity INACTIVE, or an LEI that no longer identifies it (annulled, retired, merged into
    // another), is not a live counterparty; a LAPSED LEI (not renewed) still is (docs/decisions.md, D-278).
    status:
      r.status === 'INACTIVE' || DEAD_REGISTRATIONS.has(r.registrationStatus ?? '')
        ? 'INACTIVE'
        : 'ACTIVE',
    ...(r.registrationStatus ? { registrationStatus: r.registrationStatus } : {}),
    transferTypes: [],
    services: [],
    networks: [],
    address: {
      ...(r.addressLine ? { addressLine: r.addressLine.slice(0, 70) } : {}),
      ...(r.city ? { townName: r.city.slice(0, 35) } : {}),
      ...(r.region ? { countrySubDivision: r.region.slice(0, 35) } : {}),
      ...(r.postalCode ? { postalCode: r.postalCode.slice(0, 16) } : {}),
    },
  };
}
