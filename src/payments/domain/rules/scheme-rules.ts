// The scheme and exchange rules of the go-live list (issue 26, items 3, 7 and 8), rows of the rule table
// (pure): SEPA's charge bearer, name lengths, character set, remittance and references (EPC SCT rulebook
// and implementation guidelines); a stated transfer amount against amount × rate; ACH's same-day cap,
// account number length and SEC code against the receiver (Nacha Operating Rules). (decision: SEPA scheme
// rules; decision: ACH limits; decision: stated transfer amounts must match the rate)
import { minorUnit } from '../currencies.js';
import { matchesRate } from '../fees/fx.js';
import { toMinorExact } from '../fees/money.js';
import type { InvolvedParty, PaymentOrder } from '../payment-order.js';
import type { Finding, Rule, RuleContext } from './rule.js';
import { schemesOf } from './schemes.js';

const isSepa = (o: PaymentOrder, c: RuleContext) => schemesOf(o, c.usedMechanism).has('SEPA');
const isAch = (o: PaymentOrder, c: RuleContext) => schemesOf(o, c.usedMechanism).has('ACH');

/** SEPA names (debtor, creditor, ultimate parties) hold at most 70 characters (EPC: Max70Text). */
export const SEPA_NAME_MAX = 70;
/** A structured remittance is an ISO 11649 creditor reference: at most 35 characters. */
export const SEPA_STRUCTURED_REMITTANCE_MAX = 35;
/** Nacha's per-payment cap of a same-day ACH entry (USD 1,000,000 since March 2022). */
export const SAME_DAY_ACH_CAP_USD = 1_000_000;
/** The DFI account number field of an ACH entry detail record holds 17 characters. */
export const ACH_ACCOUNT_NUMBER_MAX = 17;

/**
 * The Latin character set of the EPC implementation guidelines: a–z A–Z 0–9 / - ? : ( ) . , ' + and
 * space. Letters with diacritics (ä, é, ñ …) are accepted as the letter they decompose to, which is how
 * they travel in the scheme (EPC217-08 conversion); anything else (& @ # € …, other scripts) is refused.
 */
const SEPA_BASIC = /^[A-Za-z0-9/\-?:().,'+ ]$/;
function outsideSepaSet(text: string): string[] {
  const bad = new Set<string>();
  for (const ch of text) {
    if (SEPA_BASIC.test(ch)) continue;
    const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
    if (base.length === 1 && /^[A-Za-z]$/.test(base)) continue;
    bad.add(ch);
  }
  return [...bad];
}

/** Parties whose names a SEPA credit transfer carries: payer, payee, and the interested parties. */
function namedParties(o: PaymentOrder): { site: string; party: InvolvedParty | undefined }[] {
  return [
    { site: 'payerReference/involvedParty', party: o.payerReference?.involvedParty },
    { site: 'payeeReference/involvedParty', party: o.payeeReference?.involvedParty },
    ...(o.interestedParties ?? []).map((party, i) => ({ site: `interestedParties/${i}`, party })),
  ];
}

function sepaTexts(o: PaymentOrder): { site: string; value: string }[] {
  const out: { site: string; value: string }[] = [];
  for (const { site, party } of namedParties(o))
    if (party?.partyName !== undefined)
      out.push({ site: `${site}/partyName`, value: party.partyName });
  const remittance = o.paymentProcessingConfiguration?.remittanceInfo?.content;
  if (remittance !== undefined)
    out.push({ site: 'paymentProcessingConfiguration/remittanceInfo/content', value: remittance });
  const reference = o.paymentInstructionReference;
  if (reference?.etoeIdentification !== undefined)
    out.push({
      site: 'paymentInstructionReference/etoeIdentification',
      value: reference.etoeIdentification,
    });
  if (reference?.reference !== undefined)
    out.push({ site: 'paymentInstructionReference/reference', value: reference.reference });
  return out;
}

/** Consumer SEC codes (receiver: a person) and corporate ones (receiver: an organisation), by instrument. */
const CONSUMER_SEC: Readonly<Record<string, string>> = {
  PREARRANGED_PAYMENT_OR_DEPOSIT_CONSUMER_COUNTERPARTY: 'PPD',
  INTERNET_INITIATED_ENTRY: 'WEB',
  TELEPHONE_INITIATED_ENTRY: 'TEL',
  POINT_OF_PURCHASE: 'POP',
  POINT_OF_SALE: 'POS',
  ACCOUNTS_RECEIVABLE_CHECK: 'ARC',
  REPRESENTED_CHECK_ENTRY: 'RCK',
};
const CORPORATE_SEC: Readonly<Record<string, string>> = {
  CASH_CONCENTRATION_OR_DISBURSEMENT_CORPORATE_COUNTERPARTY: 'CCD',
  CORPORATE_TRADE_EXCHANGE: 'CTX',
};

/** Same-day ACH: an ACH order with priority HIGH, or one naming the SAME_DAY_ACH mechanism. */
function isSameDayAch(o: PaymentOrder, c: RuleContext): boolean {
  const named = [o.paymentInstruction?.requestedMechanism, c.usedMechanism].some(
    (m) => m !== undefined && /^SAME[\s_-]?DAY[\s_-]?ACH$/i.test(m.trim()),
  );
  return named || o.paymentInstruction?.priority === 'HIGH';
}

export const SCHEME_RULES: readonly Rule[] = [
  {
    // An absent charge bearer is SLEV under SEPA (the service-level default); any other value is refused.
    code: 'SEPA_CHARGE_BEARER',
    isoReason: 'CH16',
    pointer: '/paymentInstruction/chargeBearer',
    applies: isSepa,
    check: (o) => {
      const bearer = o.paymentInstruction?.chargeBearer;
      return bearer !== undefined && bearer !== 'SLEV'
        ? `SEPA credit transfers share charges under the scheme (charge bearer SLEV), not ${bearer}`
        : undefined;
    },
  },
  {
    code: 'SEPA_NAME_TOO_LONG',
    isoReason: 'CH16',
    pointer: '/{party}/partyName',
    applies: isSepa,
    check: (o) =>
      namedParties(o).flatMap(({ site, party }): Finding[] => {
        const length = [...(party?.partyName ?? '')].length;
        return length > SEPA_NAME_MAX
          ? [
              {
                site,
                message: `SEPA names hold at most ${SEPA_NAME_MAX} characters, not ${length}`,
              },
            ]
          : [];
      }),
  },
  {
    code: 'SEPA_CHARACTER_SET',
    isoReason: 'RR10',
    pointer: '/{sepaText}',
    applies: isSepa,
    check: (o) =>
      sepaTexts(o).flatMap(({ site, value }): Finding[] => {
        const bad = outsideSepaSet(value);
        return bad.length === 0
          ? []
          : [
              {
                site,
                message: `outside the SEPA character set (letters, digits, space and / - ? : ( ) . , ' +): ${bad
                  .map((ch) => JSON.stringify(ch))
                  .join(' ')}`,
              },
            ];
      }),
  },
  {
    // Unstructured remittance is at most 140 characters by the schema (400) for every payment.
    code: 'SEPA_REMITTANCE',
    isoReason: 'RR09',
    pointer: '/paymentProcessingConfiguration/remittanceInfo/content',
    applies: (o, c) =>
      isSepa(o, c) && o.paymentProcessingConfiguration?.remittanceInfo?.type === 'STRUCTURED',
    check: (o) => {
      const length = [...(o.paymentProcessingConfiguration?.remittanceInfo?.content ?? '')].length;
      return length > SEPA_STRUCTURED_REMITTANCE_MAX
        ? `a SEPA structured remittance is a creditor reference of at most ${SEPA_STRUCTURED_REMITTANCE_MAX} characters, not ${length} (use UNSTRUCTURED for free text up to 140)`
        : undefined;
    },
  },
  {
    // At most 35 characters by the schema; the EPC guidelines also forbid a leading or trailing "/" and "//".
    code: 'SEPA_REFERENCE',
    isoReason: 'CH16',
    pointer: '/paymentInstructionReference/etoeIdentification',
    applies: isSepa,
    check: (o) => {
      const id = o.paymentInstructionReference?.etoeIdentification;
      return id !== undefined && (id.startsWith('/') || id.endsWith('/') || id.includes('//'))
        ? 'a SEPA end-to-end identification must not start or end with "/" nor contain "//"'
        : undefined;
    },
  },
  {
    // exchangeRate.currency is the unit currency (ISO 20022 UnitCurrency): 1 unit of it = rate of the other.
    code: 'TRANSFER_AMOUNT_MISMATCH',
    isoReason: 'AM12',
    pointer: '/paymentInstruction/amount/transferAmount',
    check: (o) => {
      const { instructedAmount, instructedCurrency, transferAmount, transferCurrency } =
        o.paymentInstruction?.amount ?? {};
      const exchange = o.paymentInstruction?.exchangeRate;
      if (
        instructedAmount === undefined ||
        transferAmount === undefined ||
        !instructedCurrency ||
        !transferCurrency ||
        instructedCurrency === transferCurrency ||
        exchange?.rate === undefined
      )
        return undefined;
      const fromDigits = minorUnit(instructedCurrency);
      const toDigits = minorUnit(transferCurrency);
      if (fromDigits === undefined || toDigits === undefined) return undefined;
      const perInstructed = exchange.currency !== transferCurrency;
      const amountMinor = toMinorExact(instructedAmount, fromDigits);
      const transferMinor = toMinorExact(transferAmount, toDigits);
      // Amounts with too many decimals are AMOUNT_PRECISION's to name.
      if (amountMinor === undefined || transferMinor === undefined) return undefined;
      const ok = matchesRate(
        amountMinor,
        fromDigits,
        transferMinor,
        toDigits,
        exchange.rate,
        perInstructed,
      );
      if (ok) return undefined;
      const product = perInstructed
        ? `${instructedAmount} × ${exchange.rate}`
        : `${instructedAmount} ÷ ${exchange.rate}`;
      return `transferAmount ${transferCurrency} ${transferAmount} is not ${instructedCurrency} ${product} rounded to ${toDigits} decimal${toDigits === 1 ? '' : 's'}`;
    },
  },
  {
    code: 'ACH_SAME_DAY_LIMIT',
    isoReason: 'AM02',
    pointer: '/paymentInstruction/amount/instructedAmount',
    applies: (o, c) => isAch(o, c) && isSameDayAch(o, c),
    check: (o) => {
      const amount = o.paymentInstruction?.amount?.instructedAmount;
      return amount !== undefined && amount > SAME_DAY_ACH_CAP_USD
        ? `same-day ACH carries at most USD 1,000,000.00 per payment (Nacha); send it as a standard ACH entry or by Fedwire`
        : undefined;
    },
  },
  {
    code: 'ACH_ACCOUNT_NUMBER',
    isoReason: 'AC03',
    pointer: '/payeeAccountReference/paymentInstructionAccount/accountId',
    applies: isAch,
    check: (o) => {
      const id = o.payeeAccountReference?.paymentInstructionAccount?.accountId;
      const length = id === undefined ? 0 : id.replace(/[\s-]/g, '').length;
      return length > ACH_ACCOUNT_NUMBER_MAX
        ? `an ACH account number holds at most ${ACH_ACCOUNT_NUMBER_MAX} characters, not ${length}`
        : undefined;
    },
  },
  {
    // The receiver's kind is the payee party's partyType; without one nothing is assumed.
    code: 'ACH_SEC_CODE',
    isoReason: 'AG03',
    pointer: '/paymentProcessingConfiguration/localInstrument',
    applies: isAch,
    check: (o) => {
      const instrument = o.paymentProcessingConfiguration?.localInstrument ?? '';
      const receiver = o.payeeReference?.involvedParty?.partyType;
      const consumer = CONSUMER_SEC[instrument];
      const corporate = CORPORATE_SEC[instrument];
      if (consumer !== undefined && receiver === 'ORGANISATION')
        return `${consumer} is a consumer SEC code: an entry to a company (payee partyType ORGANISATION) is CCD or CTX`;
      if (corporate !== undefined && receiver === 'PERSON')
        return `${corporate} is a corporate SEC code: an entry to a consumer (payee partyType PERSON) is PPD, WEB or TEL`;
      return undefined;
    },
  },
];
