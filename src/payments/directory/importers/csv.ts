// The documented CSV / JSON format for BIC, bank-code, branch-code and sort-code data
// (docs/bank-directory.md). CSV: RFC 4180, a header row naming the columns; JSON: an array of objects
// (or { "entries": [...] }) with the same field names. Line numbers are CSV lines, or 1-based
// record numbers for JSON.
import { parseBic } from '../bic.js';
import { isKnownCountry } from '../countries.js';
import { parseRoutingNumber } from '../routing-number.js';
import type { DirectoryEntry, ParsedFile, SkippedRecord, SourcedEntry } from '../types.js';

export const CSV_COLUMNS = [
  'id',
  'country',
  'bankName',
  'bic',
  'bankCode',
  'branchCode',
  'sortCode',
  'routingNumber',
  'participantName',
  'status',
  'transferTypes',
  'services',
  'networks',
  'addressLine',
  'townName',
  'countrySubDivision',
  'postalCode',
  'phoneNumber',
] as const;

type Column = (typeof CSV_COLUMNS)[number];
type RawRecord = Partial<Record<Column, string>>;

/** RFC 4180 rows with the line each row starts on. */
export function csvRows(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line += 1;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      cells.push(cell);
      if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: start, cells });
      cells = [];
      cell = '';
      line += 1;
      start = line;
    } else cell += ch;
  }
  cells.push(cell);
  if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: start, cells });
  return rows;
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/[;|]/)
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');

export function entryFromRecord(raw: RawRecord): DirectoryEntry | string {
  const get = (c: Column) => (raw[c] ?? '').trim();
  const country = get('country').toUpperCase();
  if (!isKnownCountry(country)) return `country "${country}" is not an ISO 3166 alpha-2 code`;
  const bankName = get('bankName');
  if (bankName === '' || bankName.length > 140) return 'bankName is required (1-140 characters)';
  let bic: string | undefined;
  if (get('bic') !== '') {
    const parsed = parseBic(get('bic'));
    if (!parsed.ok) return `bic: ${parsed.reason}`;
    if (parsed.value.country !== country) {
      return `bic country ${parsed.value.country} differs from country ${country}`;
    }
    bic = parsed.value.bic11;
  }
  let routingNumber: string | undefined;
  if (get('routingNumber') !== '') {
    const parsed = parseRoutingNumber(get('routingNumber'));
    if (!parsed.ok) return `routingNumber: ${parsed.reason}`;
    routingNumber = parsed.value.routingNumber;
  }
  const sortCode = get('sortCode').replace(/-/g, '');
  if (sortCode !== '' && !/^\d{6}$/.test(sortCode)) return 'sortCode must be 6 digits';
  const bankCode = get('bankCode').replace(/[\s-]/g, '').toUpperCase();
  const branchCode = get('branchCode').replace(/[\s-]/g, '').toUpperCase();
  for (const [name, value] of [
    ['bankCode', bankCode],
    ['branchCode', branchCode],
  ] as const) {
    if (value !== '' && !/^[A-Z0-9]{1,35}$/.test(value))
      return `${name} must be 1-35 letters or digits`;
  }
  const limits: [Column, number][] = [
    ['id', 128],
    ['participantName', 140],
    ['addressLine', 70],
    ['townName', 35],
    ['countrySubDivision', 35],
    ['postalCode', 16],
    ['phoneNumber', 35],
  ];
  for (const [column, max] of limits) {
    if (get(column).length > max) return `${column} is longer than ${max} characters`;
  }
  for (const column of ['transferTypes', 'services', 'networks'] as const) {
    const bad = list(raw[column]).find((v) => !/^[A-Z0-9_]{1,35}$/.test(v));
    if (bad !== undefined) return `${column}: "${bad}" is not a code (A-Z, 0-9, _; at most 35)`;
  }
  const status = get('status').toUpperCase() || 'ACTIVE';
  if (status !== 'ACTIVE' && status !== 'INACTIVE') return 'status must be ACTIVE or INACTIVE';
  const key =
    get('id') ||
    bic ||
    (bankCode ? `${country}:${bankCode}:${branchCode}` : '') ||
    (sortCode ? `${country}:${sortCode}` : '') ||
    routingNumber;
  if (!key) return 'needs at least one of bic, bankCode, sortCode, routingNumber';
  const address = {
    addressLine: get('addressLine') || undefined,
    townName: get('townName') || undefined,
    countrySubDivision: get('countrySubDivision') || undefined,
    postalCode: get('postalCode') || undefined,
    phoneNumber: get('phoneNumber') || undefined,
  };
  const transferTypes = list(raw.transferTypes);
  return {
    source: 'csv',
    key,
    country,
    bankName,
    ...(routingNumber ? { routingNumber } : {}),
    ...(bic ? { bic } : {}),
    ...(bankCode ? { bankCode } : {}),
    ...(branchCode ? { branchCode } : {}),
    ...(sortCode ? { sortCode } : {}),
    ...(get('participantName') ? { participantName: get('participantName') } : {}),
    status,
    transferTypes: transferTypes.length > 0 ? transferTypes : ['WIRE'],
    services: list(raw.services),
    networks: list(raw.networks),
    address: JSON.parse(JSON.stringify(address)) as DirectoryEntry['address'],
  };
}

function parseCsvText(text: string): ParsedFile {
  const rows = csvRows(text.replace(/^\uFEFF/, ''));
  const header = rows.shift();
  if (!header) return { entries: [], skipped: [{ line: 1, reason: 'file is empty' }] };
  const columns = header.cells.map((c) => c.trim());
  const unknown = columns.filter((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  if (unknown.length > 0) {
    return {
      entries: [],
      skipped: [{ line: header.line, reason: `unknown column(s) ${unknown.join(', ')}` }],
    };
  }
  const entries: SourcedEntry[] = [];
  const skipped: SkippedRecord[] = [];
  for (const row of rows) {
    if (row.cells.length !== columns.length) {
      skipped.push({
        line: row.line,
        reason: `has ${row.cells.length} fields, header has ${columns.length}`,
      });
      continue;
    }
    const raw: RawRecord = {};
    columns.forEach((c, i) => {
      raw[c as Column] = row.cells[i] ?? '';
    });
    const result = entryFromRecord(raw);
    if (typeof result === 'string') skipped.push({ line: row.line, reason: result });
    else entries.push({ line: row.line, entry: result });
  }
  return { entries, skipped };
}

function parseJsonText(text: string): ParsedFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { entries: [], skipped: [{ line: 1, reason: 'file is not valid JSON' }] };
  }
  const items =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as { entries?: unknown }).entries
      : data;
  if (!Array.isArray(items)) {
    return { entries: [], skipped: [{ line: 1, reason: 'expected an array of bank records' }] };
  }
  const entries: SourcedEntry[] = [];
  const skipped: SkippedRecord[] = [];
  items.forEach((item: unknown, i) => {
    const line = i + 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      skipped.push({ line, reason: 'record is not an object' });
      return;
    }
    const raw: RawRecord = {};
    for (const [k, v] of Object.entries(item)) {
      if (!(CSV_COLUMNS as readonly string[]).includes(k)) {
        skipped.push({ line, reason: `unknown field ${k}` });
        return;
      }
      raw[k as Column] = Array.isArray(v) ? v.map(String).join(';') : String(v ?? '');
    }
    const result = entryFromRecord(raw);
    if (typeof result === 'string') skipped.push({ line, reason: result });
    else entries.push({ line, entry: result });
  });
  return { entries, skipped };
}

/** CSV or JSON, recognised by the first non-blank character. */
export function parseBankCsv(text: string): ParsedFile {
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  return first === '[' || first === '{' ? parseJsonText(text) : parseCsvText(text);
}

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Writes records in the CSV format (used by the sample generator and tests). */
export function formatBankCsv(records: readonly RawRecord[]): string {
  const head = CSV_COLUMNS.join(',');
  const body = records.map((r) => CSV_COLUMNS.map((c) => csvCell(r[c] ?? '')).join(','));
  return `${[head, ...body].join('\n')}\n`;
}

export type BankCsvRecord = RawRecord;
