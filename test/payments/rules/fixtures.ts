// Realistic payments for the rule tests: a SEPA credit transfer between German IBANs, a US ACH credit,
// a domestic Fedwire transfer and a cross-border SWIFT transfer. The clock is pinned to NOW. The payer
// accounts (harness SAMPLE_PAYER, US_PAYER) are the calling user's once `holdSampleAccounts` recorded them.
import { SAMPLE_PAYER as EUR_PAYER, US_PAYER as USD_PAYER } from '../harness.js';

export const NOW = new Date('2026-11-25T08:00:00Z');

type Json = Record<string, unknown>;

const party = (name: string, country: string, extra: Json = {}): Json => ({
  involvedParty: { partyName: name, partyType: 'PERSON', address: { country }, ...extra },
});
const account = (accountId: string, numberType?: string): Json => ({
  paymentInstructionAccount: { accountId, ...(numberType ? { numberType } : {}) },
});
const bank = (name: string, country: string, type: string, identificationNo: string): Json => ({
  involvedParty: {
    partyName: name,
    partyType: 'ORGANISATION',
    address: { country },
    organisationIdentification: { type, identificationNo },
  },
});

export interface SepaOptions {
  readonly payerIban?: string;
  readonly payeeIban?: string;
  readonly payeeCountry?: string;
  readonly amount?: Json;
  readonly instruction?: Json;
  readonly mechanism?: string;
}

/** SEPA credit transfer of EUR 250.00 from DE89370400440532013000 to DE02120300000000202051. */
export function sepaCreditTransfer(o: SepaOptions = {}): Json {
  return {
    payerReference: party('Max Mustermann', 'DE'),
    payerAccountReference: account(o.payerIban ?? EUR_PAYER, 'IBAN'),
    payeeReference: party('Erika Musterfrau', o.payeeCountry ?? 'DE'),
    payeeAccountReference: account(o.payeeIban ?? 'DE02120300000000202051'),
    paymentInstruction: {
      amount: o.amount ?? { instructedAmount: 250, instructedCurrency: 'EUR' },
      chargeBearer: 'SLEV',
      requestedMechanism: o.mechanism ?? 'SEPA',
      ...(o.instruction ?? {}),
    },
    paymentProcessingConfiguration: {
      paymentArrangement: { serviceType: 'CREDIT_TRANSFER_SERVICE', paymentMethod: 'TRF' },
      remittanceInfo: { type: 'UNSTRUCTURED', content: 'Rent December 2026' },
    },
  };
}

/** US ACH credit of USD 1,250.00 to an account at the Federal Reserve Bank of Boston (011000015). */
export function usAchCredit(o: { payeeRouting?: string; currency?: string } = {}): Json {
  return {
    payerReference: party('Acme Corp', 'US'),
    payerAccountReference: account(USD_PAYER, 'ACCOUNT_NUMBER'),
    payeeReference: party('John Smith', 'US'),
    payeeAccountReference: account('000123456789', 'ACCOUNT_NUMBER'),
    payeeBankReference: bank(
      'Federal Reserve Bank of Boston',
      'US',
      'CLEARING_IDENTIFICATION_NUMBER',
      o.payeeRouting ?? '011000015',
    ),
    paymentInstruction: {
      amount: { instructedAmount: 1250, instructedCurrency: o.currency ?? 'USD' },
      requestedMechanism: 'ACH',
    },
    paymentProcessingConfiguration: {
      localInstrument: 'PREARRANGED_PAYMENT_OR_DEPOSIT_CONSUMER_COUNTERPARTY',
      remittanceInfo: { type: 'UNSTRUCTURED', content: 'Payroll November' },
    },
  };
}

/** Domestic Fedwire customer transfer of USD 75,000.00 to JPMorgan Chase (021000021). */
export function fedwireTransfer(o: { payeeRouting?: string; currency?: string } = {}): Json {
  return {
    payerReference: party('Acme Corp', 'US'),
    payerAccountReference: account(USD_PAYER, 'ACCOUNT_NUMBER'),
    payeeReference: party('Globex LLC', 'US'),
    payeeAccountReference: account('7765432100', 'ACCOUNT_NUMBER'),
    payeeBankReference: bank(
      'JPMorgan Chase Bank',
      'US',
      'CLEARING_IDENTIFICATION_NUMBER',
      o.payeeRouting ?? '021000021',
    ),
    paymentInstruction: {
      amount: { instructedAmount: 75000, instructedCurrency: o.currency ?? 'USD' },
      requestedMechanism: 'FEDWIRE',
      priority: 'HIGH',
    },
    paymentProcessingConfiguration: { localInstrument: 'CUSTOMER_TRANSFER' },
  };
}

/** Cross-border SWIFT transfer of USD 10,000.00 from a German IBAN to a US account at CHASUS33. */
export function swiftTransfer(o: { payeeBic?: string } = {}): Json {
  return {
    payerReference: party('Max Mustermann', 'DE'),
    payerAccountReference: account(EUR_PAYER, 'IBAN'),
    payeeReference: party('Globex LLC', 'US'),
    payeeAccountReference: account('7765432100', 'ACCOUNT_NUMBER'),
    payeeBankReference: bank('JPMorgan Chase Bank', 'US', 'BICFI', o.payeeBic ?? 'CHASUS33'),
    paymentInstruction: {
      amount: { instructedAmount: 10000, instructedCurrency: 'USD' },
      requestedMechanism: 'SWIFT',
      chargeBearer: 'SHAR',
    },
  };
}
