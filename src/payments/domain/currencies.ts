// Currency codes and minor units come from src/shared/currencies.ts (the gateway's governance uses them
// too); what only the payment service needs lives here. A payment is made only in a payable currency:
// funds codes and units of account (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW), precious metals, SDR
// (XDR) and testing codes are not (decision: only payable ISO 4217 currencies).
import * as iso4217 from '../../shared/currencies.js';

/**
 * ISO 4217 codes that are not currencies a payment is made in: funds codes and units of account, precious
 * metals, the SDR, testing and "no currency" codes. Named in the refusal so a client sees why.
 */
const NOT_PAYABLE: ReadonlyMap<string, string> = new Map([
  ...['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW'].map(
    (code) => [code, 'a funds code or unit of account'] as const,
  ),
  ...['XAU', 'XAG', 'XPT', 'XPD'].map((code) => [code, 'a precious metal'] as const),
  ...['XDR', 'XSU', 'XUA', 'XBA', 'XBB', 'XBC', 'XBD'].map(
    (code) => [code, 'a unit of account'] as const,
  ),
  ['XTS', 'reserved for testing'],
  ['XXX', 'the code for "no currency"'],
]);

/** Why an ISO 4217 code is not payable (a funds code, a metal …), or undefined. */
export function notPayableBecause(code: string): string | undefined {
  return NOT_PAYABLE.get(code);
}

/** Minor unit (decimals) of a payable ISO 4217 code, or undefined for any other code. */
export function minorUnit(code: string): number | undefined {
  return NOT_PAYABLE.has(code) ? undefined : iso4217.minorUnit(code);
}

/** Whether the code is an active ISO 4217 currency a payment can be made in. */
export function isCurrency(code: string): boolean {
  return !NOT_PAYABLE.has(code) && iso4217.isCurrency(code);
}

export const currencyCodes: readonly string[] = iso4217.currencyCodes.filter(isCurrency);

/** Number of decimals in the shortest decimal representation of a JSON number. */
export function decimalsOf(value: number): number {
  if (!Number.isFinite(value)) return Infinity;
  const text = String(value);
  const exp = /e([+-]\d+)$/.exec(text);
  const mantissa = exp ? text.slice(0, exp.index) : text;
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - (exp ? Number(exp[1]) : 0));
}

/** Renders an amount as a decimal string with exactly the currency's minor unit of decimals. */
export function toDecimalString(value: number, currency: string): string {
  const digits = minorUnit(currency) ?? decimalsOf(value);
  return value.toFixed(Math.min(digits, 20));
}
