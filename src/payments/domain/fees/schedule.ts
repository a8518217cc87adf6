// The fee engine: which configured rules apply to a payment, what each costs in the currency's minor
// unit, and who bears it under the charge-bearer code. Pure: no I/O, no clock.
import type { FeeRuleConfig } from '../../../config/payments-fees.js';
import { fromMinor, mulDivHalfUp, percentUnits, PERCENT_SCALE, toMinorRounded } from './money.js';

export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
export type FeeRule = DeepReadonly<FeeRuleConfig>;

export type Channel = 'RTGS' | 'RTNS' | 'MPNS' | 'BOOK';
export type Priority = 'NORM' | 'HIGH';
export type ChargeBearer = 'DEBT' | 'CRED' | 'SHAR' | 'SLEV';
export type Scope = 'DOMESTIC' | 'CROSS_BORDER';

export interface PricingTier {
  readonly name: string;
  readonly discountPercent: number;
  readonly waivedTypes: readonly string[];
}

export interface FeeInput {
  /** Instructed amount in minor units. */
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly minorUnit: number;
  readonly channel: Channel;
  readonly priority: Priority;
  readonly chargeBearer: ChargeBearer;
  readonly scope: Scope;
  readonly tier?: PricingTier;
}

export interface AppliedFee {
  readonly amount: number;
  readonly currency: string;
  /** DEBTOR_<type>: charged to the payer on top; CREDITOR_<type>: deducted from what the payee gets. */
  readonly type: string;
}

export interface FeeLine {
  readonly ruleId: string;
  readonly type: string;
  readonly chargedBy: 'PAYER_BANK' | 'PAYEE_BANK';
  readonly bornBy: 'DEBTOR' | 'CREDITOR';
  readonly listMinor: bigint;
  readonly minor: bigint;
}

export function ruleMatches(rule: FeeRule, input: FeeInput): boolean {
  const inList = <T>(list: readonly T[], value: T) => list.length === 0 || list.includes(value);
  if (!inList(rule.channels, input.channel)) return false;
  if (!inList(rule.priorities, input.priority)) return false;
  if (!inList(rule.chargeBearers, input.chargeBearer)) return false;
  if (!inList(rule.currencies, input.currency)) return false;
  if (rule.scope !== 'ANY' && rule.scope !== input.scope) return false;
  if (
    rule.minAmount !== undefined &&
    input.amountMinor < toMinorRounded(rule.minAmount, input.minorUnit)
  ) {
    return false;
  }
  if (
    rule.maxAmount !== undefined &&
    input.amountMinor >= toMinorRounded(rule.maxAmount, input.minorUnit)
  ) {
    return false;
  }
  return true;
}

/** List price of one rule for the amount: flat + percentage, clamped to [minimum, maximum]. */
export function ruleAmount(rule: FeeRule, input: FeeInput): bigint {
  const mu = input.minorUnit;
  let fee =
    toMinorRounded(rule.flat, mu) +
    mulDivHalfUp(input.amountMinor, percentUnits(rule.percent), PERCENT_SCALE);
  if (rule.minimum !== undefined) {
    const min = toMinorRounded(rule.minimum, mu);
    if (fee < min) fee = min;
  }
  if (rule.maximum !== undefined) {
    const max = toMinorRounded(rule.maximum, mu);
    if (fee > max) fee = max;
  }
  return fee;
}

/**
 * Who bears a fee: DEBT the payer bears all, CRED the payee bears all, SHAR each party its own bank's,
 * SLEV follows the scheme rule of the SEPA/ACH-style schemes, which is the shared model.
 */
export function bearerOf(
  chargeBearer: ChargeBearer,
  chargedBy: FeeLine['chargedBy'],
): FeeLine['bornBy'] {
  if (chargeBearer === 'DEBT') return 'DEBTOR';
  if (chargeBearer === 'CRED') return 'CREDITOR';
  return chargedBy === 'PAYER_BANK' ? 'DEBTOR' : 'CREDITOR';
}

/** Applies the schedule: per (charging bank, fee type) the first matching rule wins. */
export function computeFeeLines(rules: readonly FeeRule[], input: FeeInput): FeeLine[] {
  const taken = new Set<string>();
  const lines: FeeLine[] = [];
  for (const rule of rules) {
    const slot = `${rule.chargedBy}:${rule.type}`;
    if (taken.has(slot) || !ruleMatches(rule, input)) continue;
    taken.add(slot);
    const listMinor = ruleAmount(rule, input);
    let minor = listMinor;
    const tier = input.tier;
    if (tier && rule.chargedBy === 'PAYER_BANK') {
      minor = tier.waivedTypes.includes(rule.type)
        ? 0n
        : mulDivHalfUp(
            listMinor,
            PERCENT_SCALE - percentUnits(tier.discountPercent),
            PERCENT_SCALE,
          );
    }
    lines.push({
      ruleId: rule.id,
      type: rule.type,
      chargedBy: rule.chargedBy,
      bornBy: bearerOf(input.chargeBearer, rule.chargedBy),
      listMinor,
      minor,
    });
  }
  return lines;
}

export function toAppliedFees(lines: readonly FeeLine[], input: FeeInput): AppliedFee[] {
  return lines.map((l) => ({
    amount: fromMinor(l.minor, input.minorUnit),
    currency: input.currency,
    type: `${l.bornBy}_${l.type}`,
  }));
}
