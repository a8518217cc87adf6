// The business rules of a payment order, one row per rule, in the order problems are reported (pure).
// createPayment and updatePayment refuse an order that breaks any (422), validatePayment reports them;
// fee quotes apply the field rules to their shared parts. docs/errors.md lists this table (tested).
import { isValidBIC, isValidIBAN } from 'ibantools';
import { parseRoutingNumber } from '../../directory/routing-number.js';
import { isCountry } from '../countries.js';
import { decimalsOf, isCurrency, minorUnit, notPayableBecause } from '../currencies.js';
import type { Amount, PaymentOrder } from '../payment-order.js';
import { scheduleOf } from '../payment-order.js';
import { costOf, rateEntryOf, staleRate } from '../fees/fx.js';
import { toMinorRounded } from '../fees/money.js';
import { nextExecutionFrom } from '../schedule.js';
import { electronicIban, isIbanAccount, isUsRoutingNumber } from './identifiers.js';
import { DIRECTORY_RULES } from './directory.js';
import type { Finding, PayerAccount, Rule, RuleContext } from './rule.js';
import { SCHEME_RULES } from './scheme-rules.js';
import { currencyOf, label, schemesOf, SEPA_COUNTRIES } from './schemes.js';
import { accountsOf, dateTimesOf, partiesOf, PERIODS } from './sites.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

const amountOf = (o: PaymentOrder): Amount | undefined => o.paymentInstruction?.amount;
const payerIdOf = (o: PaymentOrder) =>
  o.payerAccountReference?.paymentInstructionAccount?.accountId;
const payeeIdOf = (o: PaymentOrder) =>
  o.payeeAccountReference?.paymentInstructionAccount?.accountId;
const today = (now: Date) => now.toISOString().slice(0, 10);

/**
 * A credit transfer unless the order is a direct debit (direct-debit service or method). The
 * `creditDebtIndicator` does not decide it: a payer's credit transfer is a debit of the payer's account,
 * so DEBIT is no reason to drop the creditor (decision: the creditor is required whatever
 * creditDebtIndicator says).
 */
function isCreditTransfer(o: PaymentOrder): boolean {
  const arrangement = o.paymentProcessingConfiguration?.paymentArrangement;
  return !(
    arrangement?.serviceType === 'DIRECT_DEBIT_SERVICE' || arrangement?.paymentMethod === 'DD'
  );
}

/** Whether the creditor (name and account) is required: every credit transfer, and any SEPA order. */
const needsCreditor = (o: PaymentOrder, c: RuleContext): boolean =>
  isCreditTransfer(o) || schemesOf(o, c.usedMechanism).has('SEPA');

const incomplete = (what: string) =>
  `${what} is required: a payment order is always sent whole, with the accounts and the amount`;

/** "not an active ISO 4217 currency" (or why the code is not payable) for a currency given but unknown. */
function unknownCurrency(code: string | undefined): string | undefined {
  if (code === undefined || isCurrency(code)) return undefined;
  const why = notPayableBecause(code);
  return why === undefined
    ? `${code} is not an active ISO 4217 currency`
    : `${code} is ${why}, not a currency a payment can be made in`;
}

/** "too many decimals" for an amount in a known currency. */
function tooPrecise(value: number | undefined, currency: string | undefined): string | undefined {
  if (value === undefined || currency === undefined || !isCurrency(currency)) return undefined;
  const digits = minorUnit(currency) ?? 0;
  return decimalsOf(value) > digits
    ? `${currency} amounts take at most ${digits} decimal${digits === 1 ? '' : 's'}`
    : undefined;
}

/**
 * The payer account and the payment's currency when they differ (a conversion is needed); not for a
 * currency its scheme refuses (SCHEME_CURRENCY names that: the payment cannot exist in it anyway).
 */
function converting(
  o: PaymentOrder,
  c: RuleContext,
): { account: PayerAccount; currency: string } | undefined {
  const account = payerAccountOf(o, c);
  const currency = amountOf(o)?.instructedCurrency;
  const schemeRefuses = [...schemesOf(o, c.usedMechanism)].some((s) => currencyOf(s) !== currency);
  return account &&
    currency &&
    isCurrency(currency) &&
    currency !== account.currency &&
    !schemeRefuses
    ? { account, currency }
    : undefined;
}

/** "the rate … fixed at … is older than …": names the pair and its asOf. */
export function staleMessage(stale: { pair: string; asOf: string }, maxAgeMs: number): string {
  return `the ${stale.pair} rate fixed at ${stale.asOf} is older than ${Math.round(maxAgeMs / 1000)} s (payments.fees.rates.maxAgeSeconds) and is not used`;
}

function payerAccountOf(o: PaymentOrder, c: RuleContext): PayerAccount | undefined {
  const id = payerIdOf(o);
  return id === undefined
    ? undefined
    : c.payerAccounts?.find((a) => a.accountId === electronicIban(id));
}

/**
 * Completeness: an order names the account that pays, the account paid and the amount with its currency.
 * createPayment's schema already requires them (400); an update replaces the whole order, so a body
 * without them is refused here instead of erasing the stored values.
 */
const COMPLETENESS: readonly Rule[] = [
  {
    code: 'PAYMENT_INCOMPLETE',
    isoReason: 'RR01',
    pointer: '/payerAccountReference/paymentInstructionAccount/accountId',
    check: (o) => (payerIdOf(o) === undefined ? incomplete('the payer account') : undefined),
  },
  {
    code: 'PAYMENT_INCOMPLETE',
    isoReason: 'AM12',
    pointer: '/paymentInstruction/amount/instructedAmount',
    check: (o) =>
      amountOf(o)?.instructedAmount === undefined ? incomplete('the amount') : undefined,
  },
  {
    code: 'PAYMENT_INCOMPLETE',
    isoReason: 'AM11',
    pointer: '/paymentInstruction/amount/instructedCurrency',
    check: (o) =>
      amountOf(o)?.instructedCurrency === undefined
        ? incomplete('the currency of the amount')
        : undefined,
  },
  {
    code: 'PAYMENT_INCOMPLETE',
    isoReason: 'AC03',
    pointer: '/payeeAccountReference/paymentInstructionAccount/accountId',
    applies: (o, c) => !needsCreditor(o, c), // a credit transfer's payee account: CREDITOR_REQUIRED
    check: (o) => (payeeIdOf(o) === undefined ? incomplete('the payee account') : undefined),
  },
];

/** Rules on single fields and their neighbours; fee quotes apply them too (FIELD_RULES). */
export const FIELD_RULES: readonly Rule[] = [
  {
    code: 'CURRENCY_UNKNOWN',
    isoReason: 'AM11',
    pointer: '/paymentInstruction/amount/instructedCurrency',
    check: (o) => unknownCurrency(amountOf(o)?.instructedCurrency),
  },
  {
    code: 'AMOUNT_PRECISION',
    isoReason: 'AM12',
    pointer: '/paymentInstruction/amount/instructedAmount',
    check: (o) => tooPrecise(amountOf(o)?.instructedAmount, amountOf(o)?.instructedCurrency),
  },
  {
    code: 'CURRENCY_UNKNOWN',
    isoReason: 'AM11',
    pointer: '/paymentInstruction/amount/transferCurrency',
    check: (o) => unknownCurrency(amountOf(o)?.transferCurrency),
  },
  {
    // The transferred amount is in transferCurrency, else in the instructed currency.
    code: 'AMOUNT_PRECISION',
    isoReason: 'AM12',
    pointer: '/paymentInstruction/amount/transferAmount',
    check: (o) => {
      const amount = amountOf(o);
      return tooPrecise(
        amount?.transferAmount,
        amount?.transferCurrency ?? amount?.instructedCurrency,
      );
    },
  },
  {
    code: 'CURRENCY_UNKNOWN',
    isoReason: 'AM11',
    pointer: '/paymentInstruction/exchangeRate/currency',
    check: (o) => unknownCurrency(o.paymentInstruction?.exchangeRate?.currency),
  },
  {
    code: 'EXCHANGE_RATE_REQUIRED',
    isoReason: 'CURR',
    pointer: '/paymentInstruction/exchangeRate/rate',
    check: (o) => {
      const { instructedCurrency: instructed, transferCurrency: transfer } = amountOf(o) ?? {};
      const converted = instructed && transfer && instructed !== transfer;
      return converted && o.paymentInstruction?.exchangeRate?.rate === undefined
        ? `an exchange rate is required when transferCurrency (${transfer}) differs from instructedCurrency (${instructed})`
        : undefined;
    },
  },
  {
    code: 'CURRENCY_UNKNOWN',
    isoReason: 'AM11',
    pointer: '/paymentInstruction/appliedFee/{i}/currency',
    check: (o) =>
      (o.paymentInstruction?.appliedFee ?? []).flatMap((fee, i) => {
        const message = unknownCurrency(fee.currency);
        return message === undefined ? [] : [{ site: String(i), message }];
      }),
  },
  {
    code: 'AMOUNT_PRECISION',
    isoReason: 'AM12',
    pointer: '/paymentInstruction/appliedFee/{i}/amount',
    check: (o) =>
      (o.paymentInstruction?.appliedFee ?? []).flatMap((fee, i) => {
        const message = tooPrecise(fee.amount, fee.currency);
        return message === undefined ? [] : [{ site: String(i), message }];
      }),
  },
  {
    code: 'DATE_ORDER',
    isoReason: 'DT01',
    pointer: '/paymentInstruction/{period}',
    check: (o) =>
      PERIODS.flatMap(([group, startKey, endKey]): Finding[] => {
        const period: { readonly [key: string]: unknown } | undefined =
          o.paymentInstruction?.[group];
        const start = Date.parse(String(period?.[startKey] ?? ''));
        const end = Date.parse(String(period?.[endKey] ?? ''));
        return !Number.isNaN(start) && !Number.isNaN(end) && start >= end
          ? [{ site: `${group}/${endKey}`, message: `${endKey} must be after ${startKey}` }]
          : [];
      }),
  },
  {
    code: 'DATE_TIME_WITHOUT_OFFSET',
    isoReason: 'DT01',
    pointer: '/paymentInstruction/{dateTime}',
    check: (o) =>
      dateTimesOf(o)
        .filter(({ value }) => !OFFSET.test(value))
        .map(({ site }) => ({
          site,
          message: 'date-times must carry a time-zone offset (Z or ±hh:mm)',
        })),
  },
  {
    code: 'UETR_INVALID',
    isoReason: 'RR12',
    pointer: '/paymentInstructionReference/uetr',
    check: (o) => {
      const uetr = o.paymentInstructionReference?.uetr;
      return uetr !== undefined && !UUID.test(uetr) ? 'uetr must be a UUID' : undefined;
    },
  },
  {
    // An account whose numberType is IBAN, or without numberType but IBAN-shaped once normalised.
    code: 'IBAN_INVALID',
    isoReason: 'AC01',
    pointer: '/{account}/paymentInstructionAccount/accountId',
    check: (o) =>
      accountsOf(o).flatMap(({ site, value: { accountId, numberType } }) =>
        isIbanAccount(accountId, numberType) && !isValidIBAN(electronicIban(accountId))
          ? [
              {
                site,
                message: `${electronicIban(accountId)} is not a valid IBAN (country, length or check digits)`,
              },
            ]
          : [],
      ),
  },
  {
    code: 'BIC_INVALID',
    isoReason: 'RC01',
    pointer: '/{account}/paymentInstructionAccount/accountId',
    check: (o) =>
      accountsOf(o).flatMap(({ site, value: { accountId, numberType } }) => {
        const type = numberType?.toUpperCase();
        return (type === 'BIC' || type === 'SWIFT_CODE') && !isValidBIC(accountId)
          ? [{ site, message: 'not a valid BIC' }]
          : [];
      }),
  },
  {
    code: 'COUNTRY_UNKNOWN',
    isoReason: 'BE09',
    pointer: '/{party}/address/country',
    check: (o) =>
      partiesOf(o).flatMap(({ site, value: party }) => {
        const country = party?.address?.country;
        return country !== undefined && !isCountry(country)
          ? [{ site, message: `${country} is not an ISO 3166-1 alpha-2 country code` }]
          : [];
      }),
  },
  {
    code: 'ROUTING_NUMBER_INVALID',
    isoReason: 'RC01',
    pointer: '/{party}/organisationIdentification/identificationNo',
    check: (o) =>
      partiesOf(o).flatMap(({ site, value: party }) => {
        const id = party?.organisationIdentification?.identificationNo;
        if (id === undefined || !isUsRoutingNumber(party)) return [];
        const parsed = parseRoutingNumber(id);
        return parsed.ok
          ? []
          : [{ site, message: `${id} is not a valid US routing number: ${parsed.reason}` }];
      }),
  },
  {
    code: 'BIC_INVALID',
    isoReason: 'RC01',
    pointer: '/{party}/organisationIdentification/identificationNo',
    check: (o) =>
      partiesOf(o).flatMap(({ site, value: party }) => {
        const organisation = party?.organisationIdentification;
        const id = organisation?.identificationNo;
        return organisation?.type === 'BICFI' && id !== undefined && !isValidBIC(id)
          ? [{ site, message: 'not a valid BIC' }]
          : [];
      }),
  },
];

/** Rules on the order as a whole: its creditor, its dates against the clock, its scheme, its payer. */
const ORDER_RULES: readonly Rule[] = [
  {
    code: 'CREDITOR_REQUIRED',
    isoReason: 'RR03',
    pointer: '/payeeReference/involvedParty/partyName',
    applies: needsCreditor,
    check: (o) =>
      o.payeeReference?.involvedParty?.partyName === undefined
        ? 'a credit transfer needs its creditor: the name of the payee party'
        : undefined,
  },
  {
    code: 'CREDITOR_REQUIRED',
    isoReason: 'AC03',
    pointer: '/payeeAccountReference/paymentInstructionAccount/accountId',
    applies: needsCreditor,
    check: (o) =>
      payeeIdOf(o) === undefined
        ? "a credit transfer needs its creditor's account: the payee account id"
        : undefined,
  },
  {
    // Days are UTC days, as for the INITIATED/SCHEDULED decision: a time earlier today is today.
    code: 'EXECUTION_DATE_PAST',
    isoReason: 'DT01',
    pointer: '/paymentInstruction/paymentDates/requestedExecutionDate',
    check: (o, { now }) => {
      const requested = o.paymentInstruction?.paymentDates?.requestedExecutionDate;
      const at = Date.parse(requested ?? '');
      return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) < today(now)
        ? `the requested execution date ${requested ?? ''} lies before today (${today(now)}, UTC)`
        : undefined;
    },
  },
  {
    code: 'SCHEDULE_START_REQUIRED',
    isoReason: 'DT01',
    pointer: '/paymentInstruction/schedule/startDate',
    applies: (o) => scheduleOf(o) !== undefined,
    check: (o) =>
      scheduleOf(o)?.startDate === undefined
        ? 'a schedule needs a startDate: the date from which its executions are computed'
        : undefined,
  },
  {
    // Not reported when DATE_ORDER already names the problem (an end before the start).
    code: 'SCHEDULE_IN_PAST',
    isoReason: 'DT01',
    pointer: '/paymentInstruction/schedule/{bound}',
    applies: (o) => scheduleOf(o)?.startDate !== undefined,
    check: (o, { now }) => {
      const schedule = scheduleOf(o);
      const start = Date.parse(schedule?.startDate ?? '');
      const end = Date.parse(schedule?.endDate ?? '');
      const ordered = Number.isNaN(end) || start < end;
      if (!ordered || nextExecutionFrom(o, now) !== undefined) return undefined;
      return [
        {
          site: schedule?.endDate !== undefined ? 'endDate' : 'startDate',
          message: `every execution of this schedule lies before today (${today(now)}, UTC): nothing is left to pay`,
        },
      ];
    },
  },
  {
    code: 'SCHEME_CURRENCY',
    isoReason: 'CURR',
    pointer: '/paymentInstruction/amount/instructedCurrency',
    check: (o, { usedMechanism }) => {
      const currency = amountOf(o)?.instructedCurrency;
      return [...schemesOf(o, usedMechanism)]
        .filter((scheme) => currency !== undefined && currency !== currencyOf(scheme))
        .map((scheme) => ({
          message: `${label(scheme)} carries ${currencyOf(scheme)} only, not ${currency ?? ''}`,
        }));
    },
  },
  {
    code: 'SCHEME_ACCOUNT',
    isoReason: 'AC01',
    pointer: '/{account}/paymentInstructionAccount/accountId',
    applies: (o, { usedMechanism }) => schemesOf(o, usedMechanism).has('SEPA'),
    check: (o) =>
      accountsOf(o).flatMap(({ site, value: { accountId, numberType, name } }) => {
        const role = name === 'payerAccountReference' ? 'payer' : 'payee';
        const iban = isIbanAccount(accountId, numberType) ? electronicIban(accountId) : undefined;
        if (iban !== undefined && SEPA_COUNTRIES.has(iban.slice(0, 2))) return [];
        return [
          {
            site,
            message:
              iban === undefined
                ? `SEPA needs an IBAN for the ${role} account`
                : `SEPA does not reach ${iban.slice(0, 2)}: the ${role} IBAN must be from a SEPA country`,
          },
        ];
      }),
  },
  {
    // The payer's bank is the service's own, so only the payee bank's routing number is required.
    code: 'ROUTING_NUMBER_REQUIRED',
    isoReason: 'RC10',
    pointer: '/payeeBankReference/involvedParty/organisationIdentification/identificationNo',
    check: (o, { usedMechanism }) => {
      const organisation = o.payeeBankReference?.involvedParty?.organisationIdentification;
      if (
        organisation?.type === 'CLEARING_IDENTIFICATION_NUMBER' &&
        organisation.identificationNo !== undefined
      )
        return undefined;
      return [...schemesOf(o, usedMechanism)]
        .filter((scheme) => scheme !== 'SEPA')
        .map((scheme) => ({
          message: `${label(scheme)} needs the payee bank's routing number (organisationIdentification of type CLEARING_IDENTIFICATION_NUMBER)`,
        }));
    },
  },
  {
    // Compared in electronic form; parties are not compared (one person may pay between own accounts).
    code: 'SAME_ACCOUNT',
    isoReason: 'AG01',
    pointer: '/payeeAccountReference/paymentInstructionAccount/accountId',
    check: (o) => {
      const payer = payerIdOf(o);
      const payee = payeeIdOf(o);
      return payer !== undefined &&
        payee !== undefined &&
        electronicIban(payer) === electronicIban(payee)
        ? 'the payee account is the payer account: a payment needs two different accounts'
        : undefined;
    },
  },
  {
    code: 'PAYER_ACCOUNT_NOT_OWNED',
    isoReason: 'BE01',
    pointer: '/payerAccountReference/paymentInstructionAccount/accountId',
    applies: (o, c) => c.payerAccounts !== undefined && payerIdOf(o) !== undefined,
    check: (o, c) => {
      if (payerAccountOf(o, c) !== undefined) return undefined;
      const accounts = c.payerAccounts ?? [];
      const iban = electronicIban(payerIdOf(o) ?? '');
      return accounts.length === 0
        ? `${iban} is not one of your accounts; you have no account to pay from`
        : `${iban} is not one of your accounts; pay from ${accounts.map((a) => a.accountId).join(', ')}`;
    },
  },
  // Funds in every case (issue 26, item 1): immediate, scheduled and standing orders at acceptance, in the
  // payer account's currency (the engine checks again at each execution). A payment in another currency
  // is converted at the service's rates, which must exist and be fresh (decision: funds checked in the
  // account's currency).
  {
    code: 'EXCHANGE_RATE_UNAVAILABLE',
    isoReason: 'CURR',
    pointer: '/paymentInstruction/amount/instructedCurrency',
    applies: (o, c) => converting(o, c) !== undefined,
    check: (o, c) => {
      const { account, currency } = converting(o, c) ?? {};
      const table = c.rates?.table;
      return table && account && currency && rateEntryOf(table, account.currency, currency)
        ? undefined
        : `no exchange rate for ${account?.currency ?? ''}/${currency ?? ''} (nor ${currency ?? ''}/${account?.currency ?? ''}): the funds of ${account?.accountId ?? ''} (${account?.currency ?? ''}) cannot be checked for a ${currency ?? ''} payment`;
    },
  },
  {
    code: 'EXCHANGE_RATE_STALE',
    isoReason: 'CURR',
    pointer: '/paymentInstruction/amount/instructedCurrency',
    applies: (o, c) => converting(o, c) !== undefined && c.rates !== undefined,
    check: (o, c) => {
      const { account, currency } = converting(o, c) ?? {};
      if (!account || !currency || !c.rates) return undefined;
      const stale = staleRate(c.rates.table, account.currency, currency, c.now, c.rates.maxAgeMs);
      return stale && staleMessage(stale, c.rates.maxAgeMs);
    },
  },
  {
    // The available balance counts the user's other pending payments (not the one being updated).
    code: 'INSUFFICIENT_FUNDS',
    isoReason: 'AM04',
    pointer: '/paymentInstruction/amount/instructedAmount',
    applies: (o, c) => c.payerAccounts !== undefined,
    check: (o, c) => {
      const account = payerAccountOf(o, c);
      const { instructedAmount: amount, instructedCurrency: currency } = amountOf(o) ?? {};
      const digits = currency === undefined ? undefined : minorUnit(currency);
      const accountDigits = account ? minorUnit(account.currency) : undefined;
      if (!account || amount === undefined || !currency || digits === undefined) return undefined;
      if (accountDigits === undefined) return undefined;
      const amountMinor = toMinorRounded(amount, digits);
      let neededMinor = amountMinor;
      if (currency !== account.currency) {
        const table = c.rates?.table;
        const cost =
          table && costOf(table, account.currency, currency, amountMinor, accountDigits, digits);
        if (cost === undefined) return undefined; // EXCHANGE_RATE_UNAVAILABLE names it
        neededMinor = cost;
      }
      if (neededMinor <= account.availableMinor) return undefined;
      const converted =
        currency === account.currency
          ? ''
          : ` (${account.currency} ${formatMinor(neededMinor, accountDigits)} at the service's rate)`;
      return `${currency} ${amount.toFixed(digits)}${converted} exceeds the available balance of ${account.currency} ${formatMinor(
        account.availableMinor,
        accountDigits,
      )} on ${account.accountId}`;
    },
  },
];

/** Every rule, in the order problems are reported. */
export const RULES: readonly Rule[] = [
  ...COMPLETENESS,
  ...FIELD_RULES,
  ...ORDER_RULES,
  ...SCHEME_RULES, // go-live list (issue 26): SEPA, FX, ACH (rules/scheme-rules.ts)
  // The bank directory at acceptance (issue 26, item 2): last, after every other rule.
  ...DIRECTORY_RULES,
];

function formatMinor(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? `.${text.slice(text.length - digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
