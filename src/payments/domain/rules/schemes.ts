// The payment schemes an order asks for (pure): named by `paymentInstruction.requestedMechanism`, the
// Used-Mechanism header or a SEPA local instrument. The scheme rules of table.ts read them: SEPA needs EUR
// and IBANs of SEPA countries; ACH and Fedwire need USD and the payee bank's routing number.
import type { PaymentOrder } from '../payment-order.js';

export type Scheme = 'SEPA' | 'ACH' | 'FEDWIRE';

const MECHANISMS: Readonly<Partial<Record<string, Scheme>>> = {
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
  SAME_DAY_ACH: 'ACH',
  FEDWIRE: 'FEDWIRE',
  FEDWIRE_FUNDS: 'FEDWIRE',
};

/**
 * Countries whose IBANs SEPA reaches: the EU, the EEA (IS, LI, NO), and AD, CH, GB, GI, MC, SM, VA (EPC
 * list of the SEPA schemes' geographical scope). Territories using these countries' IBANs are covered.
 */
export const SEPA_COUNTRIES: ReadonlySet<string> = new Set(
  (
    'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK ' +
    'IS LI NO AD CH GB GI MC SM VA'
  ).split(' '),
);

/**
 * The EU and the EEA (IS, LI, NO), with the EU's outermost regions that have their own ISO country code
 * (GF, GP, MQ, RE, YT, MF) and the Åland Islands (AX): where Regulation (EU) 2021/1230 (CBPR2) prices a
 * cross-border euro payment as a domestic one.
 */
export const EEA_COUNTRIES: ReadonlySet<string> = new Set(
  (
    'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK ' +
    'IS LI NO GF GP MQ RE YT MF AX'
  ).split(' '),
);

/** The schemes the order asks for (usually none or one; several when they contradict each other). */
export function schemesOf(order: PaymentOrder, usedMechanism?: string): Set<Scheme> {
  const schemes = new Set<Scheme>();
  for (const name of [order.paymentInstruction?.requestedMechanism, usedMechanism]) {
    const scheme = name === undefined ? undefined : MECHANISMS[normalise(name)];
    if (scheme) schemes.add(scheme);
  }
  const instrument = order.paymentProcessingConfiguration?.localInstrument;
  if (instrument?.startsWith('SEPA_')) schemes.add('SEPA');
  return schemes;
}

/** The currency a scheme carries. */
export function currencyOf(scheme: Scheme): 'EUR' | 'USD' {
  return scheme === 'SEPA' ? 'EUR' : 'USD';
}

/** The scheme's name in a message. */
export function label(scheme: Scheme): string {
  return scheme === 'FEDWIRE' ? 'Fedwire' : scheme;
}

function normalise(mechanism: string): string {
  return mechanism
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
}
