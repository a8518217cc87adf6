// Scheme consistency (pure). The payment scheme comes from `paymentInstruction.requestedMechanism`, the
// Used-Mechanism header and SEPA local instruments: SEPA needs EUR and IBANs of SEPA countries; ACH and
// Fedwire need USD and the payee bank's routing number. Payer and payee accounts differ under every scheme.
import { at, str, type PaymentRecord } from '../record-access.js';
import { electronicIban, isIbanAccount } from './identifiers.js';
import type { RuleViolation } from './violation.js';

export type Scheme = 'SEPA' | 'ACH' | 'FEDWIRE';

const MECHANISMS: Readonly<Record<string, Scheme>> = {
  SEPA: 'SEPA',
  SCT: 'SEPA',
  SEPA_CT: 'SEPA',
  SEPA_INST: 'SEPA',
  SCT_INST: 'SEPA',
  STEP2: 'SEPA',
  RT1: 'SEPA',
  TIPS: 'SEPA',
  ACH: 'ACH',
  FEDACH: 'ACH',
  NACHA: 'ACH',
  EPN: 'ACH',
  FEDWIRE: 'FEDWIRE',
  FEDWIRE_FUNDS: 'FEDWIRE',
};

/**
 * Countries whose IBANs SEPA reaches: the EU, the EEA (IS, LI, NO), and AD, CH, GB, GI, MC, SM, VA (EPC
 * list of the SEPA schemes' geographical scope). Territories using these countries' IBANs are covered.
 */
const SEPA_COUNTRIES: ReadonlySet<string> = new Set(
  (
    'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK ' +
    'IS LI NO AD CH GB GI MC SM VA'
  ).split(' '),
);

const ACCOUNTS = [
  ['payerAccountReference', 'payer'],
  ['payeeAccountReference', 'payee'],
] as const;
const accountPointer = (name: string) => `/${name}/paymentInstructionAccount/accountId`;
const accountIdOf = (record: PaymentRecord, name: string) =>
  str(at(record, name, 'paymentInstructionAccount', 'accountId'));

/** The schemes the record asks for (usually none or one; several when they contradict each other). */
export function schemesOf(record: PaymentRecord, usedMechanism?: string): Set<Scheme> {
  const schemes = new Set<Scheme>();
  for (const name of [str(at(record, 'paymentInstruction', 'requestedMechanism')), usedMechanism]) {
    const scheme = name === undefined ? undefined : MECHANISMS[normalise(name)];
    if (scheme) schemes.add(scheme);
  }
  const instrument = str(at(record, 'paymentProcessingConfiguration', 'localInstrument'));
  if (instrument?.startsWith('SEPA_')) schemes.add('SEPA');
  return schemes;
}

export function checkSchemeRules(record: PaymentRecord, usedMechanism?: string): RuleViolation[] {
  const errors: RuleViolation[] = [];
  const currency = str(at(record, 'paymentInstruction', 'amount', 'instructedCurrency'));
  for (const scheme of schemesOf(record, usedMechanism)) {
    const needed = scheme === 'SEPA' ? 'EUR' : 'USD';
    if (currency !== undefined && currency !== needed) {
      errors.push({
        pointer: '/paymentInstruction/amount/instructedCurrency',
        code: 'SCHEME_CURRENCY',
        reason: 'CURR',
        message: `${label(scheme)} carries ${needed} only, not ${currency}`,
      });
    }
    if (scheme === 'SEPA') errors.push(...sepaAccounts(record));
    else errors.push(...routingNumber(record, scheme));
  }
  const payer = accountIdOf(record, 'payerAccountReference');
  const payee = accountIdOf(record, 'payeeAccountReference');
  if (payer !== undefined && payee !== undefined && sameAccount(payer, payee)) {
    errors.push({
      pointer: accountPointer('payeeAccountReference'),
      code: 'SAME_ACCOUNT',
      reason: 'AG01',
      message: 'the payee account is the payer account: a payment needs two different accounts',
    });
  }
  return errors;
}

function sepaAccounts(record: PaymentRecord): RuleViolation[] {
  const errors: RuleViolation[] = [];
  for (const [name, role] of ACCOUNTS) {
    const id = accountIdOf(record, name);
    if (id === undefined) continue;
    const numberType = str(at(record, name, 'paymentInstructionAccount', 'numberType'));
    const iban = isIbanAccount(id, numberType) ? electronicIban(id) : undefined;
    if (iban !== undefined && SEPA_COUNTRIES.has(iban.slice(0, 2))) continue;
    errors.push({
      pointer: accountPointer(name),
      code: 'SCHEME_ACCOUNT',
      reason: 'AC01',
      message:
        iban === undefined
          ? `SEPA needs an IBAN for the ${role} account`
          : `SEPA does not reach ${iban.slice(0, 2)}: the ${role} IBAN must be from a SEPA country`,
    });
  }
  return errors;
}

function routingNumber(record: PaymentRecord, scheme: Scheme): RuleViolation[] {
  const org = at(record, 'payeeBankReference', 'involvedParty', 'organisationIdentification');
  if (
    at(org, 'type') === 'CLEARING_IDENTIFICATION_NUMBER' &&
    str(at(org, 'identificationNo')) !== undefined
  )
    return [];
  return [
    {
      pointer: '/payeeBankReference/involvedParty/organisationIdentification/identificationNo',
      code: 'ROUTING_NUMBER_REQUIRED',
      reason: 'RC10',
      message: `${label(scheme)} needs the payee bank's routing number (organisationIdentification of type CLEARING_IDENTIFICATION_NUMBER)`,
    },
  ];
}

function sameAccount(a: string, b: string): boolean {
  return electronicIban(a) === electronicIban(b);
}

function normalise(mechanism: string): string {
  return mechanism
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}

function label(scheme: Scheme): string {
  return scheme === 'FEDWIRE' ? 'Fedwire' : scheme;
}
