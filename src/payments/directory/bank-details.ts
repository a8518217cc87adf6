// Merges the directory records of one institution (FedACH + Fedwire + CSV rows sharing a routing
// number, or one BIC / bank-code row) into the BankDetails shape of the API.
import { formatDistrict, parseRoutingNumber } from './routing-number.js';
import type { DirectoryEntry } from './types.js';

export interface BankDetails {
  identification?: string;
  bankName?: string;
  bankCode?: string;
  branchCode?: string;
  sortCode?: string;
  bic?: string;
  transferSupportType?: string[];
  serviceSupportType?: string[];
  federalReserveDistrict?: string;
  participantName?: string;
  network?: string[];
  status?: 'ACTIVE' | 'INACTIVE';
  address?: Record<string, string | boolean>;
  customFields?: Record<string, unknown>;
}

/** Institution identity used to group records from different sources. */
export function institutionKey(e: DirectoryEntry): string {
  return e.routingNumber
    ? `RTN:${e.routingNumber}`
    : e.bic
      ? `BIC:${e.bic}`
      : `NCC:${e.country}:${e.bankCode ?? ''}:${e.branchCode ?? e.sortCode ?? ''}`;
}

const PREFERENCE: Record<string, number> = {
  csv: 0,
  bundesbank: 1,
  fedach: 1,
  fedwire: 2,
  gleif: 3,
};

const union = (lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())];

const first = <K extends keyof DirectoryEntry>(rows: readonly DirectoryEntry[], k: K) =>
  rows.map((r) => r[k]).find((v) => v !== undefined && v !== '');

function displayBic(bic: string | undefined): string | undefined {
  if (!bic) return undefined;
  return bic.endsWith('XXX') ? bic.slice(0, 8) : bic;
}

export function mergeEntries(entries: readonly DirectoryEntry[]): BankDetails {
  const rows = [...entries].sort(
    (a, b) => (PREFERENCE[a.source] ?? 9) - (PREFERENCE[b.source] ?? 9),
  );
  const routing = first(rows, 'routingNumber');
  const bic = displayBic(first(rows, 'bic'));
  const bankCode = first(rows, 'bankCode') ?? routing;
  const branchCode = first(rows, 'branchCode');
  const sortCode = first(rows, 'sortCode');
  const country = rows[0]?.country ?? 'US';
  const parsed = routing ? parseRoutingNumber(routing) : undefined;
  const district = parsed?.ok ? formatDistrict(parsed.value.district) : undefined;
  const byAddress = [...rows].sort((a, b) => addressRank(a) - addressRank(b));
  const address: Record<string, string | boolean> = { type: 'BUSINESS', country };
  for (const field of [
    'addressLine',
    'townName',
    'countrySubDivision',
    'postalCode',
    'phoneNumber',
  ] as const) {
    const value = byAddress.map((r) => r.address[field]).find((v) => v !== undefined && v !== '');
    if (value !== undefined) address[field] = value;
  }
  const transfer = union(rows.map((r) => r.transferTypes));
  // "ACH when unknown" only for toolgate's own CSV: a Fedwire record states its transfer types exactly
  // (a securities-only participant is not an ACH participant), and the Bundesbank and GLEIF files
  // state none, which is not "ACH".
  const fromPublishedFile = rows.some((r) => r.source !== 'csv');
  const customFields: Record<string, unknown> = {
    sources: [...new Set(rows.map((r) => r.source))],
  };
  // FedACH and Fedwire often name one bank differently: keep every source's name.
  const names: Record<string, string> = {};
  for (const r of rows) names[r.source] ??= r.bankName;
  if (new Set(Object.values(names)).size > 1) customFields.bankNames = names;
  const newRtn = first(rows, 'newRoutingNumber');
  if (newRtn) customFields.newRoutingNumber = newRtn;
  const leis = [...new Set(rows.map((r) => r.lei).filter((l): l is string => l !== undefined))];
  if (leis.length > 0) customFields.lei = leis.length === 1 ? leis[0] : leis;
  if (rows.some((r) => r.sample === true)) customFields.sampleData = true;
  const successor = first(rows, 'successorBankCode');
  if (successor) customFields.successorBankCode = successor;
  const method = first(rows, 'checkMethod');
  if (method) customFields.checkDigitMethod = method;
  if (rows.some((r) => r.deletionAnnounced === true)) customFields.deletionAnnounced = true;
  const registration = [
    ...new Set(rows.map((r) => r.registrationStatus).filter((s): s is string => s !== undefined)),
  ];
  if (registration.length > 0) {
    customFields.leiRegistrationStatus = registration.length === 1 ? registration[0] : registration;
  }
  const office = first(rows, 'officeType');
  if (office) customFields.officeType = office;
  const servicing = first(rows, 'servicingFrb');
  if (servicing) customFields.servicingFrbRoutingNumber = servicing;
  const changed = rows
    .map((r) => r.changedOn)
    .filter((d): d is string => d !== undefined)
    .sort()
    .pop();
  if (changed) customFields.lastChanged = changed;
  const details: BankDetails = {
    identification: routing ?? bic ?? `${bankCode ?? ''}${branchCode ?? ''}`,
    bankName: first(rows, 'bankName'),
    ...(bankCode ? { bankCode } : {}),
    ...(branchCode ? { branchCode } : {}),
    ...(sortCode ? { sortCode: sortCode.replace(/^(\d\d)(\d\d)(\d\d)$/, '$1-$2-$3') } : {}),
    ...(bic ? { bic } : {}),
    transferSupportType: transfer.length > 0 || fromPublishedFile ? transfer : ['ACH'],
    serviceSupportType: union(rows.map((r) => r.services)),
    ...(district ? { federalReserveDistrict: district } : {}),
    ...(first(rows, 'participantName')
      ? { participantName: first(rows, 'participantName') as string }
      : {}),
    network: union(rows.map((r) => r.networks)),
    status: rows.some((r) => r.status === 'ACTIVE') ? 'ACTIVE' : 'INACTIVE',
    address,
    customFields,
  };
  return details;
}

/** FedACH carries the full postal address and phone; prefer it, then CSV, then Fedwire. */
function addressRank(e: DirectoryEntry): number {
  return e.source === 'fedach' ? 0 : e.source === 'csv' ? 1 : 2;
}
