// The bank look-up behind fetch-bank-details: parse the identification by its type (400 with the reason
// when malformed), find candidate records through the matching index, narrow by country / branch code /
// fuzzy bank name, and merge the best institution's records into BankDetails (404 when none is left).
import { parseBic } from './bic.js';
import { isKnownCountry } from './countries.js';
import { parseBban, parseIban, type AccountIdentifier } from './iban.js';
import { nameMatcher, nameSimilarity } from './jaro-winkler.js';
import type { MalformedCode } from './parse-result.js';
import { parseDirectoryRoutingNumber, parseRoutingNumber } from './routing-number.js';
import { institutionKey, mergeEntries, type BankDetails } from './bank-details.js';
import type { DirectoryStore, NameIndexItem } from './store.js';
import type { DirectoryEntry } from './types.js';

export type IdentificationType =
  'ROUTING_NUMBER' | 'IBAN' | 'SWIFT_CODE' | 'BANK_BRANCH_CODE' | 'BBAN' | 'OTHERS';

export interface BankLookupRequest {
  readonly identificationNumber: string;
  readonly identificationType: IdentificationType;
  readonly bankName?: string;
  readonly branchCode?: string;
  readonly country?: string;
}

export type LookupOutcome =
  | { readonly kind: 'found'; readonly details: BankDetails; readonly candidates: number }
  | {
      readonly kind: 'malformed';
      readonly code: MalformedCode;
      readonly pointer: string;
      readonly reason: string;
    }
  | { readonly kind: 'not-found'; readonly reason: string };

export interface LookupOptions {
  readonly nameThreshold: number;
}

const ID = '/identificationNumber';

const malformed = (code: MalformedCode, reason: string, pointer = ID): LookupOutcome => ({
  kind: 'malformed',
  code,
  pointer,
  reason,
});

/** How many institutions a name search found at its best score (more than one: ambiguous). */
interface NameSearch {
  readonly rows: DirectoryEntry[];
  readonly topMatches: number;
}

/** Candidates shown for an ambiguous name (their total is `candidateCount`). */
export const AMBIGUOUS_CANDIDATES_SHOWN = 20;

/** Candidate records for the identification, best first; or a malformed outcome. */
async function candidates(
  store: DirectoryStore,
  req: BankLookupRequest,
  options: LookupOptions,
): Promise<DirectoryEntry[] | NameSearch | LookupOutcome> {
  const id = req.identificationNumber;
  switch (req.identificationType) {
    case 'ROUTING_NUMBER': {
      const p = parseRoutingNumber(id);
      if (req.country !== undefined && req.country !== 'US' && (p.ok || p.code === 'BAD_PREFIX')) {
        return malformed('BAD_COUNTRY', 'routing numbers identify US banks', '/country');
      }
      if (!p.ok) {
        // A number outside the district ranges is still answered when a Federal Reserve file lists
        // it (Treasury numbers beginning with 15).
        const listed = parseDirectoryRoutingNumber(id);
        if (p.code === 'BAD_PREFIX' && listed.ok) {
          const rows = await store.byRoutingNumber(listed.value);
          if (rows.length > 0) return rows;
        }
        return malformed(p.code, p.reason);
      }
      return store.byRoutingNumber(p.value.routingNumber);
    }
    case 'SWIFT_CODE': {
      const p = parseBic(id);
      if (!p.ok) return malformed(p.code, p.reason);
      if (req.country !== undefined && req.country !== p.value.country) {
        return malformed('BAD_COUNTRY', `the BIC is from ${p.value.country}`, '/country');
      }
      const rows = await store.byBic(p.value.bic11, p.value.branch === undefined);
      return rows.sort((a, b) => Number(b.bic?.endsWith('XXX')) - Number(a.bic?.endsWith('XXX')));
    }
    case 'IBAN':
    case 'BBAN': {
      const p = req.identificationType === 'IBAN' ? parseIban(id) : parseBban(id, req.country);
      if (!p.ok) {
        const pointer =
          p.code === 'BAD_COUNTRY' && req.identificationType === 'BBAN' ? '/country' : ID;
        return malformed(p.code, p.reason, pointer);
      }
      if (req.country !== undefined && req.country !== p.value.country) {
        return malformed('BAD_COUNTRY', `the IBAN is from ${p.value.country}`, '/country');
      }
      return byAccount(store, p.value);
    }
    case 'BANK_BRANCH_CODE':
    case 'OTHERS': {
      const code = id.replace(/[\s-]/g, '').toUpperCase();
      if (!/^[A-Z0-9]{1,35}$/.test(code)) {
        return malformed('BAD_CHARACTERS', 'a bank or branch code has letters and digits only');
      }
      if (req.country !== undefined && !isKnownCountry(req.country)) {
        return malformed('BAD_COUNTRY', `${req.country} is not an ISO 3166 country`, '/country');
      }
      const rows = await store.byAnyCode(code, req.country);
      if (rows.length > 0 || req.identificationType === 'BANK_BRANCH_CODE' || !req.bankName) {
        return rows;
      }
      return searchByName(
        store,
        req.bankName,
        req.country,
        AMBIGUOUS_CANDIDATES_SHOWN,
        options.nameThreshold,
      );
    }
  }
}

async function byAccount(store: DirectoryStore, a: AccountIdentifier): Promise<DirectoryEntry[]> {
  const rows = await store.byBankCode(a.country, a.bankCode);
  const rank = (e: DirectoryEntry) =>
    a.branchCode !== undefined && (e.branchCode === a.branchCode || e.sortCode === a.branchCode)
      ? 0
      : e.branchCode === undefined || e.bic?.endsWith('XXX')
        ? e.officeType === 'BRANCH'
          ? 1.5
          : 1
        : 2;
  return rows.sort((x, y) => rank(x) - rank(y));
}

/** Full scan of the cached name index (OTHERS with a bank name and no code match). */
export async function byName(
  store: DirectoryStore,
  name: string,
  country: string | undefined,
  limit = 10,
  threshold = 0.85,
): Promise<DirectoryEntry[]> {
  return (await searchByName(store, name, country, limit, threshold)).rows;
}

/** Routing-number records of FedACH and Fedwire are one institution; other records stand alone. */
const institutionOfItem = (n: NameIndexItem) =>
  n.source === 'fedach' || n.source === 'fedwire' ? `RTN:${n.key}` : `${n.source}:${n.key}`;

/** `byName` plus the number of institutions sharing the best score (all of them, not only `limit`). */
export async function searchByName(
  store: DirectoryStore,
  name: string,
  country: string | undefined,
  limit = 10,
  threshold = 0.85,
): Promise<NameSearch> {
  const match = nameMatcher(name, threshold);
  const scored: { n: NameIndexItem; score: number }[] = [];
  for (const group of await store.nameGroups()) {
    const score = match(group.nameKey);
    if (score === undefined) continue;
    for (const n of group.items) {
      if (country === undefined || n.country === country) scored.push({ n, score });
    }
  }
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]?.score;
  const top = new Set(scored.filter((s) => s.score === best).map((s) => institutionOfItem(s.n)));
  scored.length = Math.min(scored.length, limit);
  const rows = await store.byKeys(scored.map((s) => ({ source: s.n.source, key: s.n.key })));
  return { rows, topMatches: top.size };
}

export async function lookupBank(
  store: DirectoryStore,
  req: BankLookupRequest,
  options: LookupOptions,
): Promise<LookupOutcome> {
  const outcome = await lookupInDirectory(store, req, options);
  // Answers from the synthetic sample say so: a found bank through its records' sample mark
  // (customFields.sampleData, no extra query), a 404 through the directory's flag.
  if (outcome.kind === 'not-found' && (await store.isSample())) {
    return { ...outcome, reason: `${outcome.reason} (the directory holds only sample data)` };
  }
  return outcome;
}

async function lookupInDirectory(
  store: DirectoryStore,
  req: BankLookupRequest,
  options: LookupOptions,
): Promise<LookupOutcome> {
  const found = await candidates(store, req, options);
  if (!Array.isArray(found) && 'kind' in found) return found;
  const nameSearch = Array.isArray(found) ? undefined : found;
  let rows = Array.isArray(found) ? found : found.rows;
  if (req.country !== undefined) rows = rows.filter((e) => e.country === req.country);
  if (rows.length === 0) {
    return { kind: 'not-found', reason: `no bank in the directory has this ${describe(req)}` };
  }
  if (req.branchCode !== undefined) {
    const branch = req.branchCode.replace(/[\s-]/g, '').toUpperCase();
    rows = rows.filter((e) => e.branchCode === branch || e.sortCode === branch);
    if (rows.length === 0) {
      return { kind: 'not-found', reason: `the bank has no branch with code ${req.branchCode}` };
    }
  }
  // Group per institution, keeping the candidate order (best first).
  const groups = new Map<string, DirectoryEntry[]>();
  for (const e of rows) {
    const key = institutionKey(e);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  let ranked = [...groups.values()];
  let scores = new Map<DirectoryEntry[], number>();
  if (req.bankName !== undefined) {
    const name = req.bankName;
    scores = new Map(
      ranked.map((g) => [g, Math.max(...g.map((e) => nameSimilarity(name, e.bankName)))]),
    );
    ranked = ranked
      .filter((g) => (scores.get(g) ?? 0) >= options.nameThreshold)
      .sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0));
    if (ranked.length === 0) {
      return {
        kind: 'not-found',
        reason: `a bank has this ${describe(req)}, but its name does not match "${name}"`,
      };
    }
  }
  const best = ranked[0] as DirectoryEntry[];
  const routing = best.find((e) => e.routingNumber)?.routingNumber;
  // Other sources of the same US institution (a BIC row and the Fed rows share the routing number).
  const all =
    routing && req.identificationType !== 'ROUTING_NUMBER'
      ? await store.byRoutingNumber(routing)
      : best;
  const details = mergeEntries(all.length > 0 ? all : best);
  const score = scores.get(best);
  if (score !== undefined && details.customFields) {
    details.customFields.nameMatchScore = Math.round(score * 1000) / 1000;
  }
  if (nameSearch !== undefined && score !== undefined && details.customFields) {
    // Found by name alone: when other institutions answer to the name as well, say so and list them
    // instead of letting the first one pass for the answer.
    const tied = ranked.filter((g) => scores.get(g) === score);
    const count = Math.max(nameSearch.topMatches, tied.length);
    if (count > 1) {
      details.customFields.nameAmbiguous = true;
      details.customFields.candidateCount = count;
      details.customFields.candidates = tied.slice(0, AMBIGUOUS_CANDIDATES_SHOWN).map(candidateOf);
    }
  }
  return { kind: 'found', details, candidates: ranked.length };
}

function candidateOf(group: readonly DirectoryEntry[]): Record<string, string> {
  const d = mergeEntries(group);
  const out: Record<string, string> = {};
  if (d.identification) out.identification = d.identification;
  if (d.bankName) out.bankName = d.bankName;
  if (d.bic) out.bic = d.bic;
  for (const k of ['townName', 'countrySubDivision', 'country'] as const) {
    const v = d.address?.[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

function describe(req: BankLookupRequest): string {
  const names: Record<IdentificationType, string> = {
    ROUTING_NUMBER: 'routing number',
    IBAN: 'IBAN bank code',
    SWIFT_CODE: 'BIC',
    BANK_BRANCH_CODE: 'bank or branch code',
    BBAN: 'BBAN bank code',
    OTHERS: 'code',
  };
  return names[req.identificationType];
}
