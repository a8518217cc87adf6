// The sites a rule is checked at (pure): each is the part of a JSON pointer that a rule's `{…}` stands
// for, derived from the same key that reads the field, with the value found there.
import type {
  InvolvedParty,
  PaymentInstruction,
  PaymentInstructionAccount,
  PaymentOrder,
} from '../payment-order.js';

export interface Site<T> {
  /** The pointer part, e.g. `payeeReference/involvedParty`. */
  readonly site: string;
  readonly value: T;
}

/** `{party}`: the four party references and each interested party. */
export const PARTY_REFERENCES = [
  'payerReference',
  'payeeReference',
  'payerBankReference',
  'payeeBankReference',
] as const;

/** `{account}`: the payer and the payee account references. */
export const ACCOUNT_REFERENCES = ['payerAccountReference', 'payeeAccountReference'] as const;
export type AccountReferenceName = (typeof ACCOUNT_REFERENCES)[number];

/** `{period}`: the two periods of an instruction, each a start that must come before its end. */
export const PERIODS = [
  ['schedule', 'startDate', 'endDate'],
  ['processingValidityTime', 'startDateTime', 'endDateTime'],
] as const;

/** `{dateTime}`: the date-times of an instruction, by group. */
const DATE_TIMES = {
  paymentDates: [
    'requestedExecutionDate',
    'acceptanceDate',
    'deliveryDate',
    'valueDate',
    'expiryDate',
  ],
  processingValidityTime: ['startDateTime', 'endDateTime'],
  schedule: ['startDate', 'endDate', 'executeOn'],
} as const satisfies {
  readonly [G in keyof PaymentInstruction]?: readonly (keyof NonNullable<PaymentInstruction[G]>)[];
};

/** `{bound}`: the end of a schedule, or its start when it has no end. */
const BOUNDS = ['endDate', 'startDate'] as const;

/** `{sepaText}`: the texts a SEPA credit transfer carries, each checked against its character set. */
export const SEPA_TEXTS = [
  'payerReference/involvedParty/partyName',
  'payeeReference/involvedParty/partyName',
  'interestedParties/{i}/partyName',
  'paymentProcessingConfiguration/remittanceInfo/content',
  'paymentInstructionReference/etoeIdentification',
  'paymentInstructionReference/reference',
] as const;

/**
 * What each `{…}` part of a rule's pointer stands for (docs/errors.md lists it). `{i}`, in a pointer or in
 * one of these, is an index of the array.
 */
export const SITES: Readonly<Record<string, readonly string[]>> = {
  account: ACCOUNT_REFERENCES,
  party: [...PARTY_REFERENCES.map((name) => `${name}/involvedParty`), 'interestedParties/{i}'],
  period: PERIODS.map(([group, , end]) => `${group}/${end}`),
  dateTime: Object.entries(DATE_TIMES).flatMap(([group, keys]) => keys.map((k) => `${group}/${k}`)),
  bound: BOUNDS,
  sepaText: SEPA_TEXTS,
};

/** Every party of the order (a reference without a party included: it has nothing to check). */
export function partiesOf(order: PaymentOrder): Site<InvolvedParty | undefined>[] {
  return [
    ...PARTY_REFERENCES.map((name) => ({
      site: `${name}/involvedParty`,
      value: order[name]?.involvedParty,
    })),
    ...(order.interestedParties ?? []).map((party, i) => ({
      site: `interestedParties/${i}`,
      value: party,
    })),
  ];
}

/** The payer and payee accounts the order names (those with an accountId). */
export function accountsOf(
  order: PaymentOrder,
): Site<
  PaymentInstructionAccount & { readonly accountId: string; readonly name: AccountReferenceName }
>[] {
  return ACCOUNT_REFERENCES.flatMap((name) => {
    const account = order[name]?.paymentInstructionAccount;
    return account?.accountId === undefined
      ? []
      : [{ site: name, value: { ...account, accountId: account.accountId, name } }];
  });
}

/** The instruction's date-times, each with its pointer part under /paymentInstruction. */
export function dateTimesOf(order: PaymentOrder): Site<string>[] {
  const out: Site<string>[] = [];
  for (const [group, keys] of Object.entries(DATE_TIMES)) {
    const values: { readonly [key: string]: unknown } | undefined =
      order.paymentInstruction?.[group as keyof typeof DATE_TIMES];
    for (const key of keys) {
      const value = values?.[key];
      if (typeof value === 'string') out.push({ site: `${group}/${key}`, value });
    }
  }
  return out;
}
