// Converts an amount a call moves into the configured base currency (gateway.governance): pure decimal
// arithmetic on integers (BigInt), never floating point, rounded once, half up, to the base currency's
// minor unit (docs/decisions.md, D-225). Policies compare the result and
// money budgets add it up, so the same call always converts to the same minor units on every replica.
import { minorUnit } from '../../shared/currencies.js';
import type { GovernedMoney } from './contracts.js';

/** The slice of gateway.governance conversion reads (the frozen configuration fits it as it is). */
export interface MoneySettings {
  /** ISO 4217 code all amounts are converted to. */
  readonly baseCurrency: string;
  /** ISO 4217 code → value of one unit of it in the base currency (decimal string or number). */
  readonly rates: Readonly<Record<string, string | number>>;
}

/** A non-negative decimal as an integer and a count of decimals: digits / 10^scale. */
interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

const AMOUNT = /^(\d{1,30})(?:\.(\d{1,30}))?$/;
const EXPONENT = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * The amount in the base currency, or an error naming what is wrong (the amount, an unknown currency, a
 * currency without a configured rate). `amount` is a decimal string with at most the currency's decimals.
 */
export function convertMoney(
  amount: string,
  currency: string,
  settings: MoneySettings,
): GovernedMoney | { error: string } {
  const decimals = minorUnit(currency);
  if (decimals === undefined)
    return { error: `currency ${JSON.stringify(currency)} is not an ISO 4217 currency code` };
  const parsed = parseDecimal(amount);
  if (parsed === undefined)
    return { error: `amount ${JSON.stringify(amount)} is not a non-negative decimal number` };
  if (parsed.scale > decimals)
    return {
      error: `amount ${amount} has more decimals than ${currency} allows (${decimals})`,
    };
  const base = settings.baseCurrency;
  const baseDecimals = minorUnit(base);
  if (baseDecimals === undefined)
    return { error: `base currency ${JSON.stringify(base)} is not an ISO 4217 currency code` };
  let rate: Decimal = { digits: 1n, scale: 0 };
  if (currency !== base) {
    const configured = Object.hasOwn(settings.rates, currency)
      ? settings.rates[currency]
      : undefined;
    if (configured === undefined)
      return {
        error: `no exchange rate for ${currency} to ${base} (gateway.governance.rates has none)`,
      };
    const parsedRate = parseRate(configured);
    if (parsedRate === undefined || parsedRate.digits === 0n)
      return { error: `the rate of ${currency} (${String(configured)}) is not a positive decimal` };
    rate = parsedRate;
  }
  const minor = rescale(
    { digits: parsed.digits * rate.digits, scale: parsed.scale + rate.scale },
    baseDecimals,
  );
  if (minor > BigInt(Number.MAX_SAFE_INTEGER))
    return { error: `amount ${amount} ${currency} is too large to govern` };
  return { amount, currency, baseCurrency: base, baseMinor: Number(minor) };
}

/** A rate as configured (decimal string or number) as an exact decimal; undefined when it is not one. */
export function parseRate(value: string | number): Decimal | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // String(number) is the shortest text that reads back as the same number: that text is the rate.
    return parseDecimal(String(value)) ?? parseExponent(String(value));
  }
  return parseDecimal(value.trim());
}

function parseDecimal(text: string): Decimal | undefined {
  const match = AMOUNT.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? '';
  return { digits: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

function parseExponent(text: string): Decimal | undefined {
  const match = EXPONENT.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? '';
  const digits = BigInt(`${match[1]}${fraction}`);
  const scale = fraction.length - Number(match[3]);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** The decimal in units of 10^-decimals, rounded half up. */
function rescale(value: Decimal, decimals: number): bigint {
  if (value.scale <= decimals) return value.digits * 10n ** BigInt(decimals - value.scale);
  const divisor = 10n ** BigInt(value.scale - decimals);
  const quotient = value.digits / divisor;
  return (value.digits % divisor) * 2n >= divisor ? quotient + 1n : quotient;
}

/** Base-currency minor units as a decimal string with the base currency's decimals ("1500.00"). */
export function formatMinor(minor: number, currency: string): string {
  const decimals = minorUnit(currency) ?? 2;
  const text = BigInt(minor)
    .toString()
    .padStart(decimals + 1, '0');
  return decimals === 0 ? text : `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}
