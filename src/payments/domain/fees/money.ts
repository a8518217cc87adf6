// Exact money arithmetic in integer minor units (bigint): amounts arrive as JSON numbers in major units,
// fees are computed and rounded (half up) in the currency's minor unit, never through a float.

/** Major-unit JSON number → minor units, or undefined when it has more decimals than the currency. */
export function toMinorExact(amount: number, minorUnit: number): bigint | undefined {
  if (!Number.isFinite(amount) || amount < 0) return undefined;
  const text = String(amount);
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  if (fraction.length > minorUnit) return undefined;
  return BigInt((m[1] ?? '0') + fraction.padEnd(minorUnit, '0'));
}

/** Major-unit configuration value → minor units, rounded half up. */
export function toMinorRounded(amount: number, minorUnit: number): bigint {
  const exact = toMinorExact(amount, minorUnit);
  if (exact !== undefined) return exact;
  const [int, frac = ''] = amount.toFixed(Math.min(minorUnit + 6, 20)).split('.');
  const kept = BigInt((int ?? '0') + frac.slice(0, minorUnit));
  return Number(frac.charAt(minorUnit)) >= 5 ? kept + 1n : kept;
}

/** Minor units → JSON number in major units (exact for any realistic fee). */
export function fromMinor(minor: bigint, minorUnit: number): number {
  if (minorUnit === 0) return Number(minor);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(minorUnit + 1, '0');
  const text = `${digits.slice(0, -minorUnit)}.${digits.slice(-minorUnit)}`;
  return Number(negative ? `-${text}` : text);
}

/** `value * numerator / denominator`, rounded half up (all non-negative). */
export function mulDivHalfUp(value: bigint, numerator: bigint, denominator: bigint): bigint {
  return (value * numerator * 2n + denominator) / (2n * denominator);
}

/** Percentages carry six decimals: 0.1 % → 100000n (of 100 000 000 = 100 %). */
export const PERCENT_SCALE = 100_000_000n;

export function percentUnits(percent: number): bigint {
  return BigInt(Math.round(percent * 1_000_000));
}
