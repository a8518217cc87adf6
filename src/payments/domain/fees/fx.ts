// Currency conversion of a fee quote from a configured rate table (pure): `EUR/USD` mid 1.16 means
// 1 EUR = 1.16 USD; the reverse direction is derived as 1 / mid. The bank's rate is the mid moved
// against the customer by the margin in basis points; amounts convert in exact integer minor units,
// rounded half up to the target currency's minor unit.
import { mulDivHalfUp } from './money.js';

export interface RateEntry {
  readonly mid: number;
  readonly marginBasisPoints?: number;
  readonly asOf?: string;
  /** Where the entry came from, when not the table's source (e.g. the rate file). */
  readonly source?: string;
}

export interface RateTable {
  readonly source: string;
  readonly asOf?: string;
  /** Default margin for pairs without their own. */
  readonly marginBasisPoints: number;
  readonly pairs: Readonly<Record<string, RateEntry>>;
}

export interface Conversion {
  /** The configured pair used, e.g. `EUR/USD`. */
  readonly pair: string;
  /** True when the quote converts in the reverse direction of the configured pair. */
  readonly inverted: boolean;
  readonly from: string;
  readonly to: string;
  /** Units of `to` per unit of `from`, mid-market. */
  readonly midRate: number;
  readonly marginBasisPoints: number;
  /** Units of `to` per unit of `from` the customer gets (mid less the margin). */
  readonly rate: number;
  readonly asOf?: string;
  readonly source: string;
  readonly convertedMinor: bigint;
  readonly atMidMinor: bigint;
  /** What the margin costs, in `to` minor units (at mid − at the customer rate). */
  readonly marginMinor: bigint;
}

/** Rates carry twelve decimals. */
const SCALE = 10n ** 12n;

function toUnits(rate: number): bigint {
  const [int, frac = ''] = rate.toFixed(12).split('.');
  return BigInt((int ?? '0') + frac.padEnd(12, '0'));
}

function fromUnits(units: bigint): number {
  return Number((Number(units) / Number(SCALE)).toFixed(10));
}

/** Converts `amountMinor` of `from` into `to`; undefined when neither direction is configured. */
export function convert(
  table: RateTable,
  from: string,
  to: string,
  amountMinor: bigint,
  fromMinorUnit: number,
  toMinorUnit: number,
): Conversion | undefined {
  const direct = table.pairs[`${from}/${to}`];
  const reverse = direct ? undefined : table.pairs[`${to}/${from}`];
  const entry = direct ?? reverse;
  if (!entry) return undefined;
  const configured = toUnits(entry.mid);
  if (configured <= 0n) return undefined;
  const midUnits = direct ? configured : mulDivHalfUp(SCALE, SCALE, configured);
  const bps = entry.marginBasisPoints ?? table.marginBasisPoints;
  const bpsUnits = BigInt(Math.round(bps * 100)); // hundredths of a basis point
  const rateUnits = mulDivHalfUp(midUnits, 1_000_000n - bpsUnits, 1_000_000n);
  const denominator = 10n ** BigInt(fromMinorUnit) * SCALE;
  const target = 10n ** BigInt(toMinorUnit);
  const atMidMinor = mulDivHalfUp(amountMinor, midUnits * target, denominator);
  const convertedMinor = mulDivHalfUp(amountMinor, rateUnits * target, denominator);
  const asOf = entry.asOf ?? table.asOf;
  return {
    pair: direct ? `${from}/${to}` : `${to}/${from}`,
    inverted: !direct,
    from,
    to,
    midRate: fromUnits(midUnits),
    marginBasisPoints: bps,
    rate: fromUnits(rateUnits),
    ...(asOf !== undefined ? { asOf } : {}),
    source: entry.source ?? table.source,
    convertedMinor,
    atMidMinor,
    marginMinor: atMidMinor - convertedMinor,
  };
}

/** The configured entry for a pair in either direction, with the pair as configured. */
export function rateEntryOf(
  table: RateTable,
  from: string,
  to: string,
): { readonly pair: string; readonly entry: RateEntry } | undefined {
  const direct = table.pairs[`${from}/${to}`];
  if (direct) return { pair: `${from}/${to}`, entry: direct };
  const reverse = table.pairs[`${to}/${from}`];
  return reverse ? { pair: `${to}/${from}`, entry: reverse } : undefined;
}

/**
 * Why the pair's rate must not be used at `now`: it was fixed longer than `maxAgeMs` ago (its `asOf`, or
 * the table's). A rate without `asOf` is the operator's standing rate and has no age (decision: stale
 * exchange rates are refused).
 */
export function staleRate(
  table: RateTable,
  from: string,
  to: string,
  now: Date,
  maxAgeMs: number,
): { readonly pair: string; readonly asOf: string } | undefined {
  const found = rateEntryOf(table, from, to);
  const asOf = found?.entry.asOf ?? table.asOf;
  if (!found || asOf === undefined) return undefined;
  const fixed = Date.parse(asOf);
  return !Number.isNaN(fixed) && now.getTime() - fixed > maxAgeMs
    ? { pair: found.pair, asOf }
    : undefined;
}

/**
 * What a payer pays in `from` minor units so that `targetMinor` of `to` arrive at the bank's rate (the
 * mid moved against the customer by the margin), rounded up to the next `from` minor unit; undefined
 * when the pair has no rate.
 */
export function costOf(
  table: RateTable,
  from: string,
  to: string,
  targetMinor: bigint,
  fromMinorUnit: number,
  toMinorUnit: number,
): bigint | undefined {
  // The rate of one `from` unit (10^fromMinorUnit minor units) gives `perUnit` minor units of `to`.
  const unit = 10n ** BigInt(fromMinorUnit);
  const scaled = convert(table, from, to, unit * SCALE, fromMinorUnit, toMinorUnit);
  if (!scaled || scaled.convertedMinor <= 0n) return undefined;
  // scaled.convertedMinor = (to minor units per from unit) × SCALE, so cost = target × unit × SCALE / that.
  // Rounded up, except a remainder below a millionth of a minor unit: that is the twelfth-decimal rounding
  // of a derived reverse rate (1 / 1.16), not a real shortfall.
  const numerator = targetMinor * unit * SCALE;
  const whole = numerator / scaled.convertedMinor;
  const remainder = numerator % scaled.convertedMinor;
  return remainder * 1_000_000n <= scaled.convertedMinor ? whole : whole + 1n;
}

/**
 * Whether `transferMinor` (in `to`) is `amountMinor` (in `from`) × `rate` rounded to `to`'s minor unit:
 * at most half a minor unit away from the exact product. `rateIsPerFrom`: the rate gives units of `to`
 * per unit of `from` (its unit currency is `from`); otherwise units of `from` per unit of `to`.
 */
export function matchesRate(
  amountMinor: bigint,
  fromMinorUnit: number,
  transferMinor: bigint,
  toMinorUnit: number,
  rate: number,
  rateIsPerFrom: boolean,
): boolean {
  const r = toUnits(rate);
  if (r <= 0n) return false;
  const from = 10n ** BigInt(fromMinorUnit);
  const to = 10n ** BigInt(toMinorUnit);
  // exact transfer (in `to` minor units) = amountMinor × to × r / (from × SCALE)   (per from)
  //                                      = amountMinor × to × SCALE / (from × r)   (per to)
  const [num, den] = rateIsPerFrom
    ? [amountMinor * to * r, from * SCALE]
    : [amountMinor * to * SCALE, from * r];
  const diff = transferMinor * den - num;
  return 2n * (diff < 0n ? -diff : diff) <= den;
}
