// Currency codes and minor units come from src/shared/currencies.ts (the gateway's governance uses them
// too); what only the payment service needs lives here.
import { minorUnit } from '../../shared/currencies.js';

export { currencyCodes, isCurrency, minorUnit } from '../../shared/currencies.js';

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
