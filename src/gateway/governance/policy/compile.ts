// Compiles a rule set (gateway.policies, or a set sent to the admin API) before it can be used: the shape of
// every rule, the fields an effect needs, unique ids, the budget limit as an amount of the base currency,
// and every `when` parsed and type-checked as CEL. Every problem names the rule (index and id), the field
// and what is wrong; nothing half-compiled is ever returned.
import type { ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import type { ParseResult } from '@marcbachmann/cel-js';
import { PolicyRuleSchema, type PolicyRuleConfig } from '../../../config/gateway-governance.js';
import { convertMoney, type MoneySettings } from '../money.js';
import { policyEnvironment } from './cel.js';

export type PolicyRule = PolicyRuleConfig;
export type ConsentEffect = 'allow' | 'deny' | 'confirm' | 'approve';

/** One problem of a rule set: `field` is the path in the set, `rules.<index>.<field>` ("rules" alone: the set). */
export interface RuleProblem {
  readonly index: number | null;
  readonly id: string | null;
  readonly field: string;
  readonly message: string;
}

export interface CompiledRule {
  readonly index: number;
  readonly rule: PolicyRule;
  /** The parsed expression, evaluated against celContext(call). */
  readonly evaluate: ParseResult;
  /** Budget rules: the limit in base-currency minor units. */
  readonly limitMinor?: number | undefined;
}

export type CompileResult =
  | { readonly ok: true; readonly rules: readonly CompiledRule[] }
  | { readonly ok: false; readonly problems: readonly RuleProblem[] };

/** At most this many problems are reported (a set of 500 broken rules need not answer 500 lines). */
const MAX_PROBLEMS = 50;
export const MAX_RULES = 500;

export function compileRules(input: unknown, money: MoneySettings): CompileResult {
  if (!Array.isArray(input))
    return fail([{ index: null, id: null, field: 'rules', message: 'must be an array of rules' }]);
  if (input.length > MAX_RULES)
    return fail([{ index: null, id: null, field: 'rules', message: `at most ${MAX_RULES} rules` }]);
  const problems: RuleProblem[] = [];
  const compiled: CompiledRule[] = [];
  const seen = new Map<string, number>();
  input.forEach((candidate: unknown, index) => {
    const rule = compileRule(candidate, index, money, problems);
    if (rule === undefined) return;
    const earlier = seen.get(rule.rule.id);
    if (earlier !== undefined)
      problems.push(at(index, rule.rule.id, 'id', `duplicates the id of rule ${earlier}`));
    else seen.set(rule.rule.id, index);
    compiled.push(rule);
  });
  return problems.length > 0 ? fail(problems) : { ok: true, rules: compiled };
}

/** "rule 2 (big-payments) when: Unexpected token: EOF" — one line per problem, for logs and errors. */
export function describeProblems(problems: readonly RuleProblem[]): string {
  return problems
    .map((p) => `${p.field}${p.id === null ? '' : ` (${p.id})`}: ${p.message}`)
    .join('; ');
}

function compileRule(
  candidate: unknown,
  index: number,
  money: MoneySettings,
  problems: RuleProblem[],
): CompiledRule | undefined {
  const id = idOf(candidate);
  if (!Value.Check(PolicyRuleSchema, candidate)) {
    for (const error of firstPerField(Value.Errors(PolicyRuleSchema, candidate)))
      problems.push(at(index, id, fieldOf(error), messageOf(error)));
    return undefined;
  }
  const rule: PolicyRule = candidate;
  const before = problems.length;
  if (rule.effect === 'approve' && rule.role === undefined)
    problems.push(at(index, id, 'role', 'is required for effect "approve" (the approver\'s role)'));
  if (rule.effect !== 'approve' && rule.role !== undefined)
    problems.push(at(index, id, 'role', 'is only used by effect "approve"'));
  if (rule.effect === 'budget' && rule.budget === undefined)
    problems.push(
      at(index, id, 'budget', 'is required for effect "budget" ({scope, period, limit})'),
    );
  if (rule.effect !== 'budget' && rule.budget !== undefined)
    problems.push(at(index, id, 'budget', 'is only used by effect "budget"'));
  let limitMinor: number | undefined;
  if (rule.budget !== undefined) {
    const converted = convertMoney(String(rule.budget.limit), money.baseCurrency, money);
    if ('error' in converted) problems.push(at(index, id, 'budget.limit', converted.error));
    else if (converted.baseMinor <= 0)
      problems.push(at(index, id, 'budget.limit', 'must be greater than 0'));
    else limitMinor = converted.baseMinor;
  }
  const evaluate = compileWhen(rule.when, index, id, problems);
  if (problems.length > before || evaluate === undefined) return undefined;
  return { index, rule, evaluate, ...(limitMinor === undefined ? {} : { limitMinor }) };
}

function compileWhen(
  when: string,
  index: number,
  id: string | null,
  problems: RuleProblem[],
): ParseResult | undefined {
  let parsed: ParseResult;
  try {
    parsed = policyEnvironment.parse(when);
  } catch (error) {
    problems.push(at(index, id, 'when', celMessage(error)));
    return undefined;
  }
  const check = parsed.check();
  if (!check.valid) {
    problems.push(at(index, id, 'when', celMessage(check.error)));
    return undefined;
  }
  // `dyn` (a value from args, claims or money) is accepted here and must be a bool when evaluated.
  if (check.type !== 'bool' && check.type !== 'dyn') {
    problems.push(at(index, id, 'when', `must be a boolean expression, not ${check.type}`));
    return undefined;
  }
  return parsed;
}

/** cel-js messages carry an excerpt with a caret after the first line: the first line says it. */
export function celMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'invalid CEL expression';
}

function at(index: number, id: string | null, field: string, message: string): RuleProblem {
  return { index, id, field: `rules.${index}.${field}`, message };
}

function idOf(candidate: unknown): string | null {
  if (typeof candidate !== 'object' || candidate === null) return null;
  const id = (candidate as { id?: unknown }).id;
  return typeof id === 'string' ? id : null;
}

function firstPerField(errors: Iterable<ValueError>): ValueError[] {
  const byPath = new Map<string, ValueError>();
  for (const error of errors) if (!byPath.has(error.path)) byPath.set(error.path, error);
  return [...byPath.values()];
}

function fieldOf(error: ValueError): string {
  const path = error.path.split('/').slice(1).join('.');
  return path === '' ? '(rule)' : path;
}

function messageOf(error: ValueError): string {
  if (error.path === '/effect') return 'must be one of allow, deny, confirm, approve, budget';
  return error.message.charAt(0).toLowerCase() + error.message.slice(1);
}

function fail(problems: RuleProblem[]): CompileResult {
  return { ok: false, problems: problems.slice(0, MAX_PROBLEMS) };
}
