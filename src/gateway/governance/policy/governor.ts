// The policy decision for one call (issue 25, "Policies"): every rule of the compiled set is evaluated in
// order over the call; the consent effect is the strongest of the matching rules (deny > approve > confirm
// > allow; none matching: allow), the first matching rule of that strength decides (its message, its
// role), and every matching `budget` rule adds its limit. A rule whose expression fails at call time never
// crashes the call: a deny, approve, confirm or budget rule counts as matched (fail closed) and an allow
// rule as not matched, and the trace says so (docs/decisions.md, D-226).
import type { BudgetLimit, GovernedCall, Governor, PolicyDecision } from '../contracts.js';
import { celContext } from './cel.js';
import { celMessage, type CompiledRule, type ConsentEffect } from './compile.js';

const STRENGTH: Readonly<Record<ConsentEffect, number>> = {
  allow: 1,
  confirm: 2,
  approve: 3,
  deny: 4,
};

type TraceEntry = PolicyDecision['trace'][number];

export interface GovernorOptions {
  readonly version: number;
  readonly rules: readonly CompiledRule[];
  readonly baseCurrency: string;
}

/** A governor over one compiled rule set (immutable: a new set makes a new governor). */
export function createGovernor(options: GovernorOptions): Governor {
  const { version, rules, baseCurrency } = options;
  return {
    version,
    empty: rules.length === 0,
    decide: (call) => decide(call, rules, version, baseCurrency),
  };
}

function decide(
  call: GovernedCall,
  rules: readonly CompiledRule[],
  version: number,
  baseCurrency: string,
): PolicyDecision {
  const context = celContext(call);
  const trace: TraceEntry[] = [];
  const budgets: BudgetLimit[] = [];
  let decisive: CompiledRule | undefined;
  for (const compiled of rules) {
    const { rule } = compiled;
    const outcome = evaluate(compiled, context);
    const matched = outcome.error === undefined ? outcome.value : rule.effect !== 'allow';
    trace.push({
      ruleId: rule.id,
      matched,
      ...(outcome.error === undefined
        ? {}
        : {
            error: `${outcome.error} (${matched ? 'counted as matched: fails closed' : 'counted as not matched'})`,
          }),
    });
    if (!matched) continue;
    if (rule.effect === 'budget') {
      if (rule.budget !== undefined && compiled.limitMinor !== undefined)
        budgets.push({
          ruleId: rule.id,
          scope: rule.budget.scope,
          period: rule.budget.period,
          limitMinor: compiled.limitMinor,
          currency: baseCurrency,
        });
      continue;
    }
    if (decisive === undefined || STRENGTH[rule.effect] > STRENGTH[effectOf(decisive)])
      decisive = compiled;
  }
  if (decisive === undefined)
    return { effect: 'allow', ruleId: null, policyVersion: version, budgets, trace };
  const { rule } = decisive;
  const effect = effectOf(decisive);
  return {
    effect,
    ruleId: rule.id,
    policyVersion: version,
    ...(effect === 'allow' ? {} : { message: rule.message ?? defaultMessage(effect, rule.id) }),
    ...(effect === 'approve' && rule.role !== undefined ? { approverRole: rule.role } : {}),
    budgets,
    trace,
  };
}

function effectOf(compiled: CompiledRule): ConsentEffect {
  const effect = compiled.rule.effect;
  return effect === 'budget' ? 'allow' : effect;
}

function evaluate(
  compiled: CompiledRule,
  context: Record<string, unknown>,
): { value: boolean; error?: undefined } | { value?: undefined; error: string } {
  try {
    const value: unknown = compiled.evaluate(context);
    if (typeof value === 'boolean') return { value };
    return { error: `the expression gave ${describe(value)}, not a bool` };
  } catch (error) {
    return { error: celMessage(error) };
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Promise) return 'a promise';
  return `a ${typeof value}`;
}

function defaultMessage(effect: Exclude<ConsentEffect, 'allow'>, ruleId: string): string {
  switch (effect) {
    case 'deny':
      return `This call is refused by policy rule "${ruleId}".`;
    case 'confirm':
      return `This call needs the confirmation of the user it is made for (policy rule "${ruleId}").`;
    case 'approve':
      return `This call needs the approval of a second person (policy rule "${ruleId}").`;
  }
}
