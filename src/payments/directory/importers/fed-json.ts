// The JSON form of the FedACH and Fedwire directories (the Federal Reserve's directory download
// service): { "fedACHParticipants": { "fedACHParticipants": [ {...}, ... ] } } and
// { "fedwireParticipants": { "fedwireParticipants": [ ... ] } }, one object per participant with the
// fields of the fixed-width record (docs/bank-directory.md). Each object is laid out as its fixed-width
// record and parsed by the same code, so both forms accept and refuse exactly the same records.
// Record numbers are 1-based positions in the array.
import type { DirectoryEntry, ParsedFile, SkippedRecord, SourcedEntry } from '../types.js';

/** [JSON field names (first present wins), width] in record order; no name = filler. */
type Layout = readonly (readonly [readonly string[], number])[];

export const FEDACH_JSON_LAYOUT: Layout = [
  [['routingNumber'], 9],
  [['officeCode'], 1],
  [['servicingFRBNumber'], 9],
  [['recordTypeCode'], 1],
  [['changeDate'], 6],
  [['newRoutingNumber'], 9],
  [['customerName'], 36],
  [['customerAddress'], 36],
  [['customerCity'], 20],
  [['customerState'], 2],
  [['customerZip'], 5],
  [['customerZipExt'], 4],
  [['customerAreaCode'], 3],
  [['customerPhonePrefix'], 3],
  [['customerPhoneSuffix'], 4],
  [['institutionStatusCode', 'statusCode'], 1],
  [['dataViewCode'], 1],
  [[], 5],
];

export const FEDWIRE_JSON_LAYOUT: Layout = [
  [['routingNumber'], 9],
  [['telegraphicName'], 18],
  [['customerName'], 36],
  [['customerState'], 2],
  [['customerCity'], 25],
  [['fundsEligibility'], 1],
  [['fundsSettlementOnlyStatus'], 1],
  [['securitiesEligibility'], 1],
  [['changeDate'], 8],
];

/** The fixed-width record of one JSON participant, or the reason it cannot be laid out. */
export function recordOf(item: unknown, layout: Layout): string {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new TypeError('participant is not an object');
  }
  const fields = item as Record<string, unknown>;
  let record = '';
  for (const [names, width] of layout) {
    const name = names.find((n) => fields[n] !== undefined && fields[n] !== null);
    const raw = name === undefined ? '' : fields[name];
    if (typeof raw !== 'string') throw new TypeError(`${name ?? ''} is not a string`);
    // A blank one-character flag is significant (settlement-only " "); others are trimmed.
    const value = width === 1 ? raw : raw.trim();
    if (value.length > width) {
      throw new TypeError(`${name ?? ''} is longer than ${width} characters`);
    }
    record += value.padEnd(width, ' ');
  }
  return record;
}

/** True when the text is JSON (first non-blank character `{` or `[`). */
export function looksLikeJson(text: string): boolean {
  const first = text.replace(/^\uFEFF/, '').trimStart()[0];
  return first === '{' || first === '[';
}

export function parseFedJson(
  text: string,
  key: 'fedACHParticipants' | 'fedwireParticipants',
  layout: Layout,
  parseLine: (record: string) => DirectoryEntry | string,
): ParsedFile {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { entries: [], skipped: [{ line: 1, reason: 'file is not valid JSON' }] };
  }
  const outer = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const wrapper = outer[key];
  const list =
    typeof wrapper === 'object' && wrapper !== null && !Array.isArray(wrapper)
      ? (wrapper as Record<string, unknown>)[key]
      : wrapper;
  if (!Array.isArray(list)) {
    return {
      entries: [],
      skipped: [{ line: 1, reason: `expected {"${key}": {"${key}": [...]}}` }],
    };
  }
  const entries: SourcedEntry[] = [];
  const skipped: SkippedRecord[] = [];
  list.forEach((item: unknown, i) => {
    const line = i + 1;
    let record: string;
    try {
      record = recordOf(item, layout);
    } catch (error) {
      skipped.push({ line, reason: (error as Error).message });
      return;
    }
    const result = parseLine(record);
    if (typeof result === 'string') skipped.push({ line, reason: result });
    else entries.push({ line, entry: result });
  });
  return { entries, skipped };
}
