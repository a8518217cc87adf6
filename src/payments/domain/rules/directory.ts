// The bank directory consulted at acceptance (pure; issue 26, go-live item 2): the records the order's
// identifiers lead to are loaded by the use case and passed in the rule context (`directory`); these
// rows check them. Each row is one configurable check (`payments.directory.acceptance.<check>`: refuse,
// warn or off; DIRECTORY_CHECK_OF) and names the directory entry in its message (docs/decisions.md, D-275).
import { isValidBIC, isValidIBAN } from 'ibantools';
import { checkGermanAccount } from '../../directory/check-digits.js';
import { DEAD_REGISTRATIONS } from '../../directory/importers/gleif.js';
import type { DirectoryEntry, DirectorySource } from '../../directory/types.js';
import type { DirectoryKeys } from './directory-facts.js';
import type { PaymentOrder } from '../payment-order.js';
import { electronicIban, isIbanAccount, isUsRoutingNumber } from './identifiers.js';
import type { Rule, RuleCode, RuleContext } from './rule.js';

export type { DirectoryFacts, DirectoryKeys } from './directory-facts.js';
import { schemesOf, type Scheme } from './schemes.js';
import { partiesOf } from './sites.js';

const PAYEE_BANK_ID =
  '/payeeBankReference/involvedParty/organisationIdentification/identificationNo';
const PAYEE_ACCOUNT = '/payeeAccountReference/paymentInstructionAccount/accountId';

/** The payee bank's US routing number, when the order names one. */
function payeeRoutingNumber(o: PaymentOrder): string | undefined {
  const party = o.payeeBankReference?.involvedParty;
  const id = party?.organisationIdentification?.identificationNo;
  return id !== undefined && isUsRoutingNumber(party) && /^\d{9}$/.test(id) ? id : undefined;
}

/** The payee's German IBAN split into bank code and account number, when valid. */
function payeeGermanAccount(
  o: PaymentOrder,
): { iban: string; bankCode: string; accountNumber: string } | undefined {
  const account = o.payeeAccountReference?.paymentInstructionAccount;
  if (account?.accountId === undefined || !isIbanAccount(account.accountId, account.numberType)) {
    return undefined;
  }
  const iban = electronicIban(account.accountId);
  if (!iban.startsWith('DE') || !isValidIBAN(iban)) return undefined;
  return { iban, bankCode: iban.slice(4, 12), accountNumber: iban.slice(12, 22) };
}

function leisOf(o: PaymentOrder): { site: string; lei: string }[] {
  return partiesOf(o).flatMap(({ site, value }) => {
    const id = value?.organisationIdentification;
    return id?.type === 'LEI' && id.identificationNo !== undefined
      ? [{ site, lei: id.identificationNo.toUpperCase() }]
      : [];
  });
}

/** What the use case loads for an order. */
export function directoryKeysOf(o: PaymentOrder): DirectoryKeys {
  const rtn = payeeRoutingNumber(o);
  const de = payeeGermanAccount(o);
  return {
    routingNumbers: rtn === undefined ? [] : [rtn],
    germanBankCodes: de === undefined ? [] : [de.bankCode],
    leis: [...new Set(leisOf(o).map((l) => l.lei))],
  };
}

/** "021000021 (JPMORGAN CHASE BANK, NA, NEW YORK NY; Fedwire file)": the entry a problem is about. */
export function describeEntry(e: DirectoryEntry): string {
  const place = [e.address.townName, e.address.countrySubDivision].filter(Boolean).join(' ');
  const id = e.routingNumber ?? e.bankCode ?? e.bic ?? e.lei ?? e.key;
  return `${id} (${e.bankName}${place ? `, ${place}` : ''}; ${SOURCE_NAMES[e.source]} record ${e.key})`;
}

const SOURCE_NAMES: Record<DirectorySource, string> = {
  fedach: 'FedACH',
  fedwire: 'Fedwire',
  csv: 'directory CSV',
  bundesbank: 'Bundesbank',
  gleif: 'GLEIF',
};

const RAIL_SOURCE: Partial<Record<Scheme, DirectorySource>> = { FEDWIRE: 'fedwire', ACH: 'fedach' };
const RAIL_NAME: Partial<Record<Scheme, string>> = { FEDWIRE: 'Fedwire', ACH: 'FedACH' };

/** The US rails the order asks for (Fedwire, ACH). */
const railsOf = (o: PaymentOrder, c: RuleContext): Scheme[] =>
  [...schemesOf(o, c.usedMechanism)].filter((s) => RAIL_SOURCE[s] !== undefined);

const routingEntries = (o: PaymentOrder, c: RuleContext) => {
  const rtn = payeeRoutingNumber(o);
  return rtn === undefined ? undefined : { rtn, entries: c.directory?.routing.get(rtn) ?? [] };
};

/** Bundesbank (else any) records of the payee IBAN's bank code. */
const bankCodeEntries = (o: PaymentOrder, c: RuleContext) => {
  const de = payeeGermanAccount(o);
  if (de === undefined) return undefined;
  const all = c.directory?.bankCodes.get(de.bankCode) ?? [];
  return { ...de, all, bundesbank: all.filter((e) => e.source === 'bundesbank') };
};

/** The payee's German account checked with the method its bank code's Bundesbank record names. */
const checkDigitsOf = (o: PaymentOrder, c: RuleContext) => {
  const found = bankCodeEntries(o, c);
  const entry = found?.bundesbank.find((e) => e.checkMethod !== undefined);
  if (found === undefined || entry?.checkMethod === undefined) return undefined;
  const method = entry.checkMethod;
  return { found, entry, method, result: checkGermanAccount(method, found.accountNumber) };
};

/** IBAN countries whose banks may carry another country's BIC (territories using the IBAN of …). */
const BIC_COUNTRIES_OF_IBAN: Readonly<Record<string, readonly string[]>> = {
  FR: ['GF', 'GP', 'MQ', 'RE', 'YT', 'PM', 'BL', 'MF', 'NC', 'PF', 'WF', 'MC'],
  GB: ['GG', 'JE', 'IM'],
  FI: ['AX'],
  ES: ['IC', 'EA'],
  PT: [],
};

const hasDirectory = (_o: PaymentOrder, c: RuleContext) => c.directory !== undefined;

/** The directory checks, in the order problems are reported (after the other rules). */
export const DIRECTORY_RULES: readonly Rule[] = [
  {
    // Fedwire to a number only FedACH lists (or a securities-only Fedwire participant); ACH to a number
    // only Fedwire lists. Needs the rail's own file in the directory.
    code: 'ROUTING_NUMBER_NOT_ON_RAIL',
    isoReason: 'RC10',
    pointer: PAYEE_BANK_ID,
    applies: hasDirectory,
    check: (o, c) => {
      const found = routingEntries(o, c);
      if (found === undefined || found.entries.length === 0) return undefined;
      return railsOf(o, c).flatMap((rail) => {
        const source = RAIL_SOURCE[rail] as DirectorySource;
        const name = RAIL_NAME[rail] as string;
        const onRail = found.entries.filter((e) => e.source === source);
        const other = found.entries[0] as DirectoryEntry;
        if (onRail.length === 0) {
          return c.directory?.sources.has(source) === true
            ? [
                {
                  message: `${found.rtn} is not a ${name} participant: the directory lists it only as ${describeEntry(other)}`,
                },
              ]
            : [];
        }
        const wire = onRail.find((e) => e.source === 'fedwire');
        if (rail === 'FEDWIRE' && wire && !wire.services.includes('FUNDS_TRANSFER')) {
          return [
            {
              message: `${describeEntry(wire)} takes no Fedwire funds transfers (book-entry securities only)`,
            },
          ];
        }
        return [];
      });
    },
  },
  {
    code: 'ROUTING_NUMBER_SETTLEMENT_ONLY',
    isoReason: 'RC10',
    pointer: PAYEE_BANK_ID,
    applies: (o, c) => hasDirectory(o, c) && railsOf(o, c).includes('FEDWIRE'),
    check: (o, c) => {
      const wire = routingEntries(o, c)?.entries.find(
        (e) => e.source === 'fedwire' && e.transferTypes.includes('WIRE_SETTLEMENT_ONLY'),
      );
      return wire === undefined
        ? undefined
        : `${describeEntry(wire)} is a Fedwire settlement-only participant: it takes no customer funds transfers`;
    },
  },
  {
    code: 'ROUTING_NUMBER_RENUMBERED',
    isoReason: 'RC10',
    pointer: PAYEE_BANK_ID,
    applies: hasDirectory,
    check: (o, c) => {
      const moved = routingEntries(o, c)?.entries.find((e) => e.newRoutingNumber !== undefined);
      return moved === undefined
        ? undefined
        : `${describeEntry(moved)} has been renumbered: send to the new routing number ${moved.newRoutingNumber ?? ''}${moved.changedOn ? ` (changed ${moved.changedOn})` : ''}`;
    },
  },
  {
    // Only against imported Fed files (not the sample) that hold the rail's records.
    code: 'ROUTING_NUMBER_UNKNOWN',
    isoReason: 'RC10',
    pointer: PAYEE_BANK_ID,
    applies: (o, c) => c.directory !== undefined && !c.directory.sample,
    check: (o, c) => {
      const found = routingEntries(o, c);
      if (found === undefined || found.entries.length > 0) return undefined;
      return railsOf(o, c)
        .filter((rail) => c.directory?.sources.has(RAIL_SOURCE[rail] as DirectorySource))
        .map((rail) => ({
          message: `${found.rtn} is in no Federal Reserve directory file: no ${RAIL_NAME[rail] ?? ''} participant has this routing number`,
        }));
    },
  },
  {
    code: 'BANK_CODE_DELETED',
    isoReason: 'RC01',
    pointer: PAYEE_ACCOUNT,
    applies: hasDirectory,
    check: (o, c) => {
      const found = bankCodeEntries(o, c);
      if (found === undefined || found.bundesbank.length === 0) return undefined;
      if (found.bundesbank.some((e) => e.status === 'ACTIVE')) return undefined;
      const entry = found.bundesbank[0] as DirectoryEntry;
      const successor = found.bundesbank.find((e) => e.successorBankCode)?.successorBankCode;
      return `bank code ${found.bankCode} of ${found.iban} is deleted in the Bundesbank file: ${describeEntry(entry)}${successor ? `; its successor bank code is ${successor}` : ''}`;
    },
  },
  {
    // Still valid until the issue of the file that deletes it: a warning by default, naming the successor.
    code: 'BANK_CODE_DELETION_ANNOUNCED',
    isoReason: 'RC01',
    pointer: PAYEE_ACCOUNT,
    applies: hasDirectory,
    check: (o, c) => {
      const found = bankCodeEntries(o, c);
      const entry = found?.bundesbank.find((e) => e.status === 'ACTIVE' && e.deletionAnnounced);
      if (found === undefined || entry === undefined) return undefined;
      return `bank code ${found.bankCode} of ${found.iban} is announced for deletion in the Bundesbank file: ${describeEntry(entry)}${entry.successorBankCode ? `; its successor bank code is ${entry.successorBankCode}` : ''}`;
    },
  },
  {
    code: 'BANK_CODE_UNKNOWN',
    isoReason: 'RC01',
    pointer: PAYEE_ACCOUNT,
    applies: (o, c) =>
      c.directory !== undefined && !c.directory.sample && c.directory.sources.has('bundesbank'),
    check: (o, c) => {
      const found = bankCodeEntries(o, c);
      return found === undefined || found.all.length > 0
        ? undefined
        : `bank code ${found.bankCode} of ${found.iban} is not in the Bundesbank bank code file: no German bank has it`;
    },
  },
  {
    // The payee bank's BIC must be of the payee IBAN's country (or a territory using that IBAN).
    code: 'BIC_COUNTRY_MISMATCH',
    isoReason: 'RC01',
    pointer: PAYEE_BANK_ID,
    // Needs no record, but is a directory check like the others: applied where its mode is.
    applies: hasDirectory,
    check: (o) => {
      const id = o.payeeBankReference?.involvedParty?.organisationIdentification;
      const account = o.payeeAccountReference?.paymentInstructionAccount;
      // A malformed BIC is BIC_INVALID's.
      if (id?.type !== 'BICFI' || id.identificationNo === undefined) return undefined;
      if (!isValidBIC(id.identificationNo)) return undefined;
      if (account?.accountId === undefined || !isIbanAccount(account.accountId, account.numberType))
        return undefined;
      const bicCountry = id.identificationNo.toUpperCase().slice(4, 6);
      const ibanCountry = electronicIban(account.accountId).slice(0, 2);
      if (bicCountry === ibanCountry) return undefined;
      if (BIC_COUNTRIES_OF_IBAN[ibanCountry]?.includes(bicCountry) === true) return undefined;
      return `the payee bank's BIC ${id.identificationNo} is from ${bicCountry}, the payee IBAN from ${ibanCountry}: the BIC is not the account's bank`;
    },
  },
  {
    code: 'ACCOUNT_CHECK_DIGITS',
    isoReason: 'AC01',
    pointer: PAYEE_ACCOUNT,
    applies: hasDirectory,
    check: (o, c) => {
      const checked = checkDigitsOf(o, c);
      if (checked?.result.kind !== 'invalid') return undefined;
      const { found, entry, method } = checked;
      return `account number ${found.accountNumber} of ${found.iban} fails check-digit method ${method} of bank code ${describeEntry(entry)}`;
    },
  },
  {
    code: 'CHECK_METHOD_UNSUPPORTED',
    isoReason: 'AC01',
    pointer: PAYEE_ACCOUNT,
    applies: hasDirectory,
    check: (o, c) => {
      const checked = checkDigitsOf(o, c);
      if (checked?.result.kind !== 'unsupported') return undefined;
      const { found, entry, method } = checked;
      return `check-digit method ${method} of bank code ${describeEntry(entry)} is not implemented: account number ${found.accountNumber} was not checked`;
    },
  },
  {
    code: 'LEI_LAPSED',
    isoReason: 'RR12',
    pointer: '/{party}/organisationIdentification/identificationNo',
    applies: hasDirectory,
    check: (o, c) => leiFindings(o, c, (s) => s === 'LAPSED'),
  },
  {
    code: 'LEI_INACTIVE',
    isoReason: 'RR12',
    pointer: '/{party}/organisationIdentification/identificationNo',
    applies: hasDirectory,
    check: (o, c) => leiFindings(o, c, (s) => DEAD_REGISTRATIONS.has(s)),
  },
];

function leiFindings(o: PaymentOrder, c: RuleContext, matches: (status: string) => boolean) {
  return leisOf(o).flatMap(({ site, lei }) => {
    const entry = c.directory?.leis
      .get(lei)
      ?.find((e) => e.registrationStatus !== undefined && matches(e.registrationStatus));
    return entry === undefined
      ? []
      : [
          {
            site,
            message: `LEI ${lei} has registration status ${entry.registrationStatus ?? ''} in the GLEIF file: ${describeEntry(entry)}`,
          },
        ];
  });
}

/** The configuration key (`payments.directory.acceptance.<check>`) of each directory rule. */
export const DIRECTORY_CHECK_OF: Readonly<Partial<Record<RuleCode, string>>> = {
  ROUTING_NUMBER_NOT_ON_RAIL: 'routingNumberNotOnRail',
  ROUTING_NUMBER_SETTLEMENT_ONLY: 'settlementOnly',
  ROUTING_NUMBER_RENUMBERED: 'renumbered',
  ROUTING_NUMBER_UNKNOWN: 'routingNumberUnknown',
  BANK_CODE_DELETED: 'bankCodeDeleted',
  BANK_CODE_DELETION_ANNOUNCED: 'bankCodeDeletionAnnounced',
  BANK_CODE_UNKNOWN: 'bankCodeUnknown',
  BIC_COUNTRY_MISMATCH: 'bicCountryMismatch',
  ACCOUNT_CHECK_DIGITS: 'accountCheckDigits',
  CHECK_METHOD_UNSUPPORTED: 'checkMethodUnsupported',
  LEI_LAPSED: 'leiLapsed',
  LEI_INACTIVE: 'leiInactive',
};
