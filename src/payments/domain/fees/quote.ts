// fetch-fees as a pure function: fee query record in (schema-valid), fee query record out with
// `appliedFee`, `dates`, the defaults it assumed and a `customFields.feeQuote` summary. Business-rule
// problems (unknown currency, too many decimals, bad IBAN, unknown mechanism …) throw PaymentError 422.
import { electronicFormatIBAN, extractIBAN } from 'ibantools';
import type { FeesConfig } from '../../../config/payments-fees.js';
import { minorUnit } from '../currencies.js';
import { PaymentError, type FieldProblem } from '../errors.js';
import type { FeeQuery, PaymentOrder } from '../payment-order.js';
import { evaluate } from '../rules/rule.js';
import { FIELD_RULES, staleMessage } from '../rules/table.js';
import { formatZoned } from './calendar.js';
import { quoteDates } from './dates.js';
import { channelOfMechanism, defaultChannel, KNOWN_MECHANISMS } from './mechanism.js';
import { toMinorExact, fromMinor } from './money.js';
import { convert, staleRate, type Conversion, type RateTable } from './fx.js';
import { railClock, railOf } from './rails.js';
import { EEA_COUNTRIES } from '../rules/schemes.js';
import {
  computeFeeLines,
  explainFees,
  toAppliedFees,
  type ChargeBearer,
  type DeepReadonly,
  type FeeInput,
  type PricingTier,
  type Priority,
  type Scope,
} from './schedule.js';

export type FeesSettings = DeepReadonly<FeesConfig>;

export interface QuoteOptions {
  readonly fees: FeesSettings;
  readonly now: Date;
  /** The caller's user id when the gateway vouched for one (personalised pricing). */
  readonly userId?: string;
  readonly mechanismHeader?: string;
  /** The current rate table (refreshed by the caller); default: the inline `fees.rates`. */
  readonly rates?: RateTable;
}

const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/** Field problems of a fee query, applying the payment order's field rules to the shared parts. */
function problems(query: FeeQuery, options: QuoteOptions): FieldProblem[] {
  const order: PaymentOrder = {
    payerReference: query.payerReference,
    payeeReference: query.payeeReference,
    payerBankReference: query.payerBankReference,
    payeeBankReference: query.payeeBankReference,
    payerAccountReference: query.payerAccountReference,
    payeeAccountReference: query.payeeAccountReference,
    paymentInstruction: { amount: query.amount, appliedFee: query.appliedFee },
  };
  // The order rule asks a payment for its own exchange rate; a quote takes it from the rate source.
  const fieldErrors = evaluate(FIELD_RULES, order, { now: options.now }).filter(
    (e) => e.code !== 'EXCHANGE_RATE_REQUIRED',
  );
  const errors: FieldProblem[] = fieldErrors.map((e) => ({
    pointer: e.pointer.replace(/^\/paymentInstruction/, ''),
    code: e.code,
    message: e.message,
  }));
  if (query.amount?.instructedAmount === undefined) {
    errors.push({
      pointer: '/amount/instructedAmount',
      code: 'REQUIRED',
      message: 'the amount to quote is required',
    });
  }
  if (query.amount?.instructedCurrency === undefined) {
    errors.push({
      pointer: '/amount/instructedCurrency',
      code: 'REQUIRED',
      message: 'the currency of the amount is required',
    });
  }
  (query.dates ?? []).forEach((d, i) => {
    const v = d.dateTime;
    if (v !== undefined && !OFFSET.test(v)) {
      errors.push({
        pointer: `/dates/${i}/dateTime`,
        code: 'DATE_TIME_WITHOUT_OFFSET',
        message: 'date-times must carry a time-zone offset (Z or ±hh:mm)',
      });
    }
  });
  const bodyMechanism = query.usedMechanism;
  if (bodyMechanism !== undefined && !channelOfMechanism(bodyMechanism)) {
    errors.push({
      pointer: '/usedMechanism',
      code: 'MECHANISM_UNKNOWN',
      message: `unknown mechanism; use one of ${KNOWN_MECHANISMS.join(', ')}`,
    });
  } else if (
    bodyMechanism === undefined &&
    options.mechanismHeader !== undefined &&
    !channelOfMechanism(options.mechanismHeader)
  ) {
    errors.push({
      pointer: '/header/Used-Mechanism',
      code: 'MECHANISM_UNKNOWN',
      message: `unknown mechanism; use one of ${KNOWN_MECHANISMS.join(', ')}`,
    });
  }
  return errors;
}

interface BankSide {
  readonly country: string | undefined;
  readonly bank: string | undefined;
}

/** Country and identity of a bank: its address, its BIC, or the IBAN of the account it holds. */
function bankSide(
  query: FeeQuery,
  bankRef: 'payerBankReference' | 'payeeBankReference',
  accountRef: 'payerAccountReference' | 'payeeAccountReference',
): BankSide {
  const party = query[bankRef]?.involvedParty;
  const org = party?.organisationIdentification;
  const bic = org?.type === 'BICFI' ? org.identificationNo?.toUpperCase() : undefined;
  const accountId = query[accountRef]?.paymentInstructionAccount?.accountId;
  const iban = accountId ? extractIBAN(electronicFormatIBAN(accountId) ?? accountId) : undefined;
  const ibanOk = iban?.valid === true;
  return {
    country:
      party?.address?.country ?? bic?.slice(4, 6) ?? (ibanOk ? iban?.countryCode : undefined),
    bank: bic
      ? bic.slice(0, 8)
      : ibanOk
        ? `${iban?.countryCode}:${iban?.bankIdentifier}`
        : undefined,
  };
}

function tierFor(fees: FeesSettings, userId: string | undefined): PricingTier | undefined {
  if (userId === undefined) return undefined;
  const name = fees.customerTiers[userId];
  const tier = name === undefined ? undefined : fees.tiers[name];
  return tier && name
    ? { name, discountPercent: tier.discountPercent, waivedTypes: tier.waivedTypes }
    : undefined;
}

export function quoteFees(query: FeeQuery, options: QuoteOptions): FeeQuery {
  const errors = problems(query, options);
  if (errors.length > 0) {
    throw new PaymentError(
      'BUSINESS_RULE_VIOLATION',
      `The fee query has ${errors.length} problem${errors.length === 1 ? '' : 's'}.`,
      errors,
    );
  }
  const { fees } = options;
  const amount = query.amount ?? {};
  // problems() refused a query without amount and currency.
  const currency = amount.instructedCurrency ?? '';
  const mu = minorUnit(currency) ?? 2;
  const amountMinor = toMinorExact(amount.instructedAmount ?? 0, mu) ?? 0n;
  const transferCurrency = amount.transferCurrency;
  const conversion =
    transferCurrency !== undefined && transferCurrency !== currency
      ? convertOrFail(options, fees, currency, transferCurrency, amountMinor, mu)
      : undefined;
  const railCurrency = transferCurrency ?? currency;
  const payer = bankSide(query, 'payerBankReference', 'payerAccountReference');
  const payee = bankSide(query, 'payeeBankReference', 'payeeAccountReference');
  const scope: Scope =
    payer.country && payee.country && payer.country !== payee.country ? 'CROSS_BORDER' : 'DOMESTIC';
  // CBPR2: a cross-border euro payment inside the EU/EEA is priced (and routed) as a domestic one
  // (decision: EU pricing and value dates of euro payments).
  const cbpr2 =
    scope === 'CROSS_BORDER' &&
    railCurrency === 'EUR' &&
    EEA_COUNTRIES.has(payer.country ?? '') &&
    EEA_COUNTRIES.has(payee.country ?? '');
  const pricingScope: Scope = cbpr2 ? 'DOMESTIC' : scope;
  const chargeBearer: ChargeBearer = query.chargeBearer ?? 'SHAR';
  const priority: Priority = query.priority ?? 'NORM';
  const mechanism = query.usedMechanism ?? options.mechanismHeader;
  const channel =
    (mechanism ? channelOfMechanism(mechanism) : undefined) ??
    defaultChannel(payer.bank !== undefined && payer.bank === payee.bank, pricingScope, priority);
  const tier = tierFor(fees, options.userId);
  const input: FeeInput = {
    amountMinor,
    currency,
    minorUnit: mu,
    channel,
    priority,
    chargeBearer,
    scope: pricingScope,
    ...(tier ? { tier } : {}),
  };
  const lines = computeFeeLines(fees.rules, input);

  const requestedText = query.dates?.find(
    (d) => d.dateType === 'REQUESTED_EXECUTION_DATE',
  )?.dateTime;
  const requested = requestedText ? new Date(requestedText) : options.now;
  const effective = requested.getTime() < options.now.getTime() ? options.now : requested;
  const clock = railClock(
    fees,
    railOf(fees, mechanism, channel, railCurrency),
    channel,
    railCurrency,
    effective,
  );
  // The SEPA schemes settle D+1 (SCT) or within seconds (SCT Inst) across their whole reach: no extra
  // cross-border day on them.
  const sepaRail = clock.rail === 'SEPA' || clock.rail === 'SEPA_INST';
  const computed = quoteDates({
    requested: effective,
    scope: sepaRail ? 'DOMESTIC' : scope,
    instant: clock.instant,
    calendar: clock.calendar,
    cutOff: clock.cutOff,
    settlementDays: clock.settlementDays,
    crossBorderExtraDays: fees.crossBorderExtraDays,
  });
  const sum = (side: 'DEBTOR' | 'CREDITOR') =>
    fromMinor(
      lines.filter((l) => l.bornBy === side).reduce((a, l) => a + l.minor, 0n),
      mu,
    );
  const custom = query.customFields ?? {};
  const summary = {
    clearingChannel: channel,
    rail: clock.rail,
    timeZone: clock.calendar.timeZone,
    scope,
    ...(cbpr2 ? { pricedAs: 'DOMESTIC', regulation: 'CBPR2' } : {}),
    pricing: tier ? tier.name : 'LIST',
    totalDebtorCharges: sum('DEBTOR'),
    totalCreditorDeductions: sum('CREDITOR'),
    listPrice: fromMinor(
      lines.reduce((a, l) => a + l.listMinor, 0n),
      mu,
    ),
    lines: explainFees(lines, fees.rules, input),
    ...(conversion ? { exchange: describeConversion(conversion) } : {}),
  };
  return {
    ...query,
    ...(conversion
      ? {
          amount: {
            ...amount,
            transferAmount: fromMinor(conversion.convertedMinor, minorUnit(conversion.to) ?? 2),
          },
        }
      : {}),
    chargeBearer,
    priority,
    usedMechanism: mechanism ?? channel,
    appliedFee: toAppliedFees(lines, input),
    dates: [
      {
        dateType: 'REQUESTED_EXECUTION_DATE',
        dateTime: requestedText ?? formatZoned(options.now, clock.calendar.timeZone),
      },
      ...computed.dates,
    ],
    customFields: Object.keys(custom).length < 50 ? { ...custom, feeQuote: summary } : custom,
  };
}

function convertOrFail(
  options: QuoteOptions,
  fees: FeesSettings,
  from: string,
  to: string,
  amountMinor: bigint,
  fromMinorUnit: number,
): Conversion {
  const table: RateTable = options.rates ?? fees.rates;
  const toMinorUnit = minorUnit(to) ?? 2;
  const conversion = convert(table, from, to, amountMinor, fromMinorUnit, toMinorUnit);
  if (!conversion) {
    throw new PaymentError('BUSINESS_RULE_VIOLATION', 'The fee query has 1 problem.', [
      {
        pointer: '/amount/transferCurrency',
        code: 'EXCHANGE_RATE_UNAVAILABLE',
        message: `no exchange rate for ${from}/${to} (nor ${to}/${from}) in the rate source "${table.source}"`,
      },
    ]);
  }
  const stale = staleRate(table, from, to, options.now, fees.rates.maxAgeSeconds * 1000);
  if (stale) {
    throw new PaymentError('BUSINESS_RULE_VIOLATION', 'The fee query has 1 problem.', [
      {
        pointer: '/amount/transferCurrency',
        code: 'EXCHANGE_RATE_STALE',
        message: staleMessage(stale, fees.rates.maxAgeSeconds * 1000),
      },
    ]);
  }
  if (conversion.convertedMinor <= 0n) {
    throw new PaymentError('BUSINESS_RULE_VIOLATION', 'The fee query has 1 problem.', [
      {
        pointer: '/amount/instructedAmount',
        code: 'AMOUNT_TOO_SMALL_TO_CONVERT',
        message: `the amount converts to less than one minor unit of ${to}`,
      },
    ]);
  }
  return conversion;
}

/** How the amount was converted, as the quote's summary shows it. */
interface ConversionSummary {
  readonly from: string;
  readonly to: string;
  readonly pair: string;
  readonly inverted: boolean;
  readonly midRate: number;
  readonly marginBasisPoints: number;
  readonly rate: number;
  readonly convertedAmount: number;
  readonly amountAtMid: number;
  readonly marginAmount: number;
  readonly source: string;
  readonly asOf?: string;
}

function describeConversion(c: Conversion): ConversionSummary {
  const mu = minorUnit(c.to) ?? 2;
  return {
    from: c.from,
    to: c.to,
    pair: c.pair,
    inverted: c.inverted,
    midRate: c.midRate,
    marginBasisPoints: c.marginBasisPoints,
    rate: c.rate,
    convertedAmount: fromMinor(c.convertedMinor, mu),
    amountAtMid: fromMinor(c.atMidMinor, mu),
    marginAmount: fromMinor(c.marginMinor, mu),
    source: c.source,
    ...(c.asOf !== undefined ? { asOf: c.asOf } : {}),
  };
}
