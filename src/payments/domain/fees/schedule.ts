// The fee engine: which configured rules apply to a payment, what each costs in the currency's minor
// unit, and who bears it under the charge-bearer code. Pure: no I/O, no clock.
import type { FeeRuleConfig } from '../../../config/payments-fees.js';
import type { ChargeBearer, Priority } from '../payment-order.js';
import { fromMinor, mulDivHalfUp, percentUnits, PERCENT_SCALE, toMinorRounded } from './money.js';

export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
export type FeeRule = DeepReadonly<FeeRuleConfig>;

export type Channel = 'RTGS' | 'RTNS' | 'MPNS' | 'BOOK';
export type { ChargeBearer, Priority } from '../payment-order.js';
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

/** How a rule prices: a fixed amount, a percentage of the instructed amount, or both added. */
export type FeeMethod = 'FLAT' | 'PERCENT' | 'FLAT_PLUS_PERCENT';

/** How one rule's list price came about (all amounts in minor units). */
export interface RuleBreakdown {
  readonly method: FeeMethod;
  readonly flatMinor: bigint;
  readonly percentMinor: bigint;
  /** flat + percentage before the clamp. */
  readonly computedMinor: bigint;
  readonly minimumApplied: boolean;
  readonly maximumApplied: boolean;
  /** The clamped list price. */
  readonly listMinor: bigint;
}

export interface FeeLine {
  readonly ruleId: string;
  readonly type: string;
  readonly chargedBy: 'PAYER_BANK' | 'PAYEE_BANK';
  readonly bornBy: 'DEBTOR' | 'CREDITOR';
  readonly listMinor: bigint;
  readonly minor: bigint;
  readonly breakdown: RuleBreakdown;
  /** Whether the rule is one band of a tiered price (it has minAmount and/or maxAmount). */
  readonly tiered: boolean;
  /** A surcharge: a fee type ending in SURCHARGE, added on top of the transfer fee. */
  readonly surcharge: boolean;
  /** Customer pricing: the tier's discount, or the fee waived. */
  readonly pricing?: {
    readonly tier: string;
    readonly discountPercent: number;
    readonly waived: boolean;
  };
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
export function ruleBreakdown(rule: FeeRule, input: FeeInput): RuleBreakdown {
  const mu = input.minorUnit;
  const flatMinor = toMinorRounded(rule.flat, mu);
  const percentMinor = mulDivHalfUp(input.amountMinor, percentUnits(rule.percent), PERCENT_SCALE);
  const computedMinor = flatMinor + percentMinor;
  let fee = computedMinor;
  let minimumApplied = false;
  let maximumApplied = false;
  if (rule.minimum !== undefined) {
    const min = toMinorRounded(rule.minimum, mu);
    if (fee < min) {
      fee = min;
      minimumApplied = true;
    }
  }
  if (rule.maximum !== undefined) {
    const max = toMinorRounded(rule.maximum, mu);
    if (fee > max) {
      fee = max;
      maximumApplied = true;
      minimumApplied = false;
    }
  }
  const method: FeeMethod =
    rule.percent === 0 ? 'FLAT' : rule.flat === 0 ? 'PERCENT' : 'FLAT_PLUS_PERCENT';
  return {
    method,
    flatMinor,
    percentMinor,
    computedMinor,
    minimumApplied,
    maximumApplied,
    listMinor: fee,
  };
}

export function ruleAmount(rule: FeeRule, input: FeeInput): bigint {
  return ruleBreakdown(rule, input).listMinor;
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
    const breakdown = ruleBreakdown(rule, input);
    const listMinor = breakdown.listMinor;
    let minor = listMinor;
    const tier = input.tier;
    let pricing: FeeLine['pricing'];
    if (tier && rule.chargedBy === 'PAYER_BANK') {
      const waived = tier.waivedTypes.includes(rule.type);
      minor = waived
        ? 0n
        : mulDivHalfUp(
            listMinor,
            PERCENT_SCALE - percentUnits(tier.discountPercent),
            PERCENT_SCALE,
          );
      pricing = { tier: tier.name, discountPercent: waived ? 100 : tier.discountPercent, waived };
    }
    lines.push({
      ruleId: rule.id,
      type: rule.type,
      chargedBy: rule.chargedBy,
      bornBy: bearerOf(input.chargeBearer, rule.chargedBy),
      listMinor,
      minor,
      breakdown,
      tiered: rule.minAmount !== undefined || rule.maxAmount !== undefined,
      surcharge: /SURCHARGE$/.test(rule.type),
      ...(pricing ? { pricing } : {}),
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

/** Why one fee costs what it costs (amounts in the unit of the currency). */
export interface FeeExplanation {
  readonly type: string;
  readonly amount: number;
  readonly currency: string;
  /** The configured rule's id and description. */
  readonly rule: string;
  readonly description?: string;
  readonly method: FeeMethod;
  readonly flat?: number;
  readonly percent?: number;
  readonly percentAmount?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minimumApplied: boolean;
  readonly maximumApplied: boolean;
  /** The amount band of a tiered rule. */
  readonly band?: { readonly from?: number; readonly below?: number };
  readonly tiered: boolean;
  readonly surcharge: boolean;
  readonly chargedBy: FeeLine['chargedBy'];
  readonly listPrice: number;
  readonly pricing?: FeeLine['pricing'];
}

/**
 * Why each fee costs what it costs, in the order of `appliedFee`: the rule (configuration id and
 * description), the method, the parts, whether the minimum or maximum applied, the amount band of a
 * tiered rule, whether it is a surcharge, and the customer pricing on top.
 */
export function explainFees(
  lines: readonly FeeLine[],
  rules: readonly FeeRule[],
  input: FeeInput,
): FeeExplanation[] {
  const mu = input.minorUnit;
  const money = (minor: bigint) => fromMinor(minor, mu);
  return lines.map((l) => {
    const rule = rules.find((r) => r.id === l.ruleId);
    const b = l.breakdown;
    return {
      type: `${l.bornBy}_${l.type}`,
      amount: money(l.minor),
      currency: input.currency,
      rule: l.ruleId,
      ...(rule?.description !== undefined ? { description: rule.description } : {}),
      method: b.method,
      ...(b.method !== 'PERCENT' ? { flat: money(b.flatMinor) } : {}),
      ...(b.method !== 'FLAT'
        ? { percent: rule?.percent ?? 0, percentAmount: money(b.percentMinor) }
        : {}),
      ...(rule?.minimum !== undefined ? { minimum: rule.minimum } : {}),
      ...(rule?.maximum !== undefined ? { maximum: rule.maximum } : {}),
      minimumApplied: b.minimumApplied,
      maximumApplied: b.maximumApplied,
      ...(l.tiered
        ? {
            band: {
              ...(rule?.minAmount !== undefined ? { from: rule.minAmount } : {}),
              ...(rule?.maxAmount !== undefined ? { below: rule.maxAmount } : {}),
            },
          }
        : {}),
      tiered: l.tiered,
      surcharge: l.surcharge,
      chargedBy: l.chargedBy,
      listPrice: money(l.listMinor),
      ...(l.pricing ? { pricing: l.pricing } : {}),
    };
  });
}
