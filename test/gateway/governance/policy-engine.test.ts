// Issue 25, "Policies": rules in CEL over the tool, arguments, caller, time and money; effects allow, deny,
// confirm, approve and budget; compiled and checked with the error named; the strongest effect decides
// (contracts.ts: deny > approve > confirm > allow, budgets accumulate).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GovernedCall, PolicyDecision } from '../../../src/gateway/governance/contracts.js';
import { compileRules, type RuleProblem } from '../../../src/gateway/governance/policy/compile.js';
import { createGovernor } from '../../../src/gateway/governance/policy/governor.js';
import { convertMoney } from '../../../src/gateway/governance/money.js';

const money = { baseCurrency: 'EUR', rates: { USD: '0.86' } };

function governorOf(rules: unknown[], version = 3) {
  const compiled = compileRules(rules, money);
  if (!compiled.ok) assert.fail(`did not compile: ${JSON.stringify(compiled.problems)}`);
  return createGovernor({ version, rules: compiled.rules, baseCurrency: 'EUR' });
}

function problemsOf(rules: unknown): readonly RuleProblem[] {
  const compiled = compileRules(rules, money);
  assert.equal(compiled.ok, false, 'expected the set to be refused');
  return compiled.ok ? [] : compiled.problems;
}

function call(overrides: Partial<GovernedCall> = {}, amount?: [string, string]): GovernedCall {
  const converted = amount === undefined ? undefined : convertMoney(amount[0], amount[1], money);
  if (converted !== undefined && 'error' in converted) assert.fail(converted.error);
  return {
    callId: '00000000-0000-4000-8000-000000000001',
    tool: {
      name: 'createPayment',
      backend: 'payments',
      securityClass: 'user-scoped',
      annotations: { destructiveHint: true },
    },
    arguments: { debtorAccount: 'DE02', purpose: 'rent' },
    argumentsHash: 'ab'.repeat(32),
    caller: {
      application: 'budget-app',
      subscription: 'sub-1',
      environment: 'development',
      subject: 'alice',
      claims: { roles: ['customer'] },
      scopes: ['payments:write'],
    },
    at: new Date('2026-11-26T10:00:00Z'),
    ...(converted === undefined ? {} : { money: converted }),
    ...overrides,
  };
}

const rule = (id: string, when: string, effect: string, extra: object = {}) => ({
  id,
  when,
  effect,
  ...extra,
});

describe('policy rules compile with the error named (issue 25: "compiled and checked before saving with the error named")', () => {
  it('names the rule index, id, field and the CEL error of a syntax error', () => {
    const [problem] = problemsOf([
      rule('ok', 'true', 'allow'),
      rule('broken', 'money.base >', 'deny'),
    ]);
    assert.equal(problem?.index, 1);
    assert.equal(problem?.id, 'broken');
    assert.equal(problem?.field, 'rules.1.when');
    assert.match(problem?.message ?? '', /Unexpected token/);
  });

  it('refuses an unknown variable, a misspelt tool field and a non-boolean expression', () => {
    assert.match(
      problemsOf([rule('a', 'amount > 5', 'deny')])[0]?.message ?? '',
      /Unknown variable: amount/,
    );
    assert.match(problemsOf([rule('b', 'tool.nmae == "x"', 'deny')])[0]?.message ?? '', /nmae/);
    const nonBool = problemsOf([rule('c', 'tool.name', 'deny')])[0];
    assert.equal(nonBool?.field, 'rules.0.when');
    assert.match(nonBool?.message ?? '', /must be a boolean expression, not string/);
  });

  it('checks the fields each effect needs, unique ids and the shape of a rule', () => {
    assert.deepEqual(
      problemsOf([rule('x', 'true', 'approve')]).map((p) => [p.field, p.message]),
      [['rules.0.role', 'is required for effect "approve" (the approver\'s role)']],
    );
    assert.equal(problemsOf([rule('x', 'true', 'budget')])[0]?.field, 'rules.0.budget');
    assert.equal(problemsOf([rule('x', 'true', 'deny', { role: 'r' })])[0]?.field, 'rules.0.role');
    const dup = problemsOf([rule('x', 'true', 'allow'), rule('x', 'false', 'deny')])[0];
    assert.deepEqual([dup?.field, dup?.message], ['rules.1.id', 'duplicates the id of rule 0']);
    assert.equal(problemsOf([rule('x', 'true', 'permit')])[0]?.field, 'rules.0.effect');
    assert.equal(problemsOf([{ when: 'true', effect: 'allow' }])[0]?.field, 'rules.0.id');
    const limit = problemsOf([
      rule('b', 'true', 'budget', { budget: { scope: 'user', period: 'day', limit: '10.001' } }),
    ])[0];
    assert.equal(limit?.field, 'rules.0.budget.limit');
    assert.equal(problemsOf({ not: 'an array' })[0]?.field, 'rules');
  });

  it('compiles the variables the issue lists: tool, args, caller, now and money', () => {
    const governor = governorOf([
      rule(
        'all',
        [
          'tool.name == "createPayment" && tool.backend == "payments"',
          'tool.securityClass == "user-scoped" && tool.annotations.destructiveHint',
          'args.purpose == "rent" && caller.application == "budget-app" && caller.subscription == "sub-1"',
          'caller.environment == "development" && caller.subject == "alice"',
          '"customer" in caller.claims.roles && "payments:write" in caller.scopes',
          'now.getHours("UTC") == 10 && money.base == 1500.0 && money.currency == "EUR"',
          'money.baseCurrency == "EUR" && money.amount == "1500.00" && money.baseMinor == 150000',
        ].join(' && '),
        'deny',
      ),
    ]);
    assert.equal(governor.decide(call({}, ['1500.00', 'EUR'])).effect, 'deny');
    assert.equal(governor.decide(call({}, ['1500.01', 'EUR'])).effect, 'allow');
  });
});

describe('effects and their combination (contracts.ts: deny > approve > confirm > allow; budgets accumulate)', () => {
  const rules = [
    rule('allow-reads', 'tool.annotations.readOnlyHint == true', 'allow'),
    rule('confirm-1000', 'has(money.base) && money.base > 1000', 'confirm', {
      message: 'Confirm payments above 1,000 EUR.',
    }),
    rule('approve-10000', 'has(money.base) && money.base > 10000', 'approve', {
      role: 'payments-approver',
    }),
    rule('deny-big', 'has(money.base) && money.base > 100000', 'deny', { message: 'Too large.' }),
    rule('daily', 'has(money.base)', 'budget', {
      budget: { scope: 'user', period: 'day', limit: '25000' },
    }),
    rule('monthly-sub', 'has(money.base)', 'budget', {
      budget: { scope: 'subscription', period: 'month', limit: 1000000 },
    }),
  ];
  const governor = governorOf(rules, 7);

  it('no matching consent rule: allow, with ruleId null and the version', () => {
    const decision = governor.decide(call({ tool: { ...call().tool, annotations: {} } }));
    assert.deepEqual(pick(decision), {
      effect: 'allow',
      ruleId: null,
      policyVersion: 7,
      message: undefined,
      approverRole: undefined,
    });
    assert.deepEqual(decision.budgets, []);
    assert.equal(decision.trace.length, rules.length, 'every rule is in the trace');
  });

  it('allow decides when only an allow rule matches', () => {
    const decision = governor.decide(
      call({ tool: { ...call().tool, annotations: { readOnlyHint: true } } }),
    );
    assert.deepEqual(pick(decision), {
      effect: 'allow',
      ruleId: 'allow-reads',
      policyVersion: 7,
      message: undefined,
      approverRole: undefined,
    });
  });

  it('confirm over allow, with the rule message and the budgets', () => {
    const decision = governor.decide(
      call({ tool: { ...call().tool, annotations: { readOnlyHint: true } } }, ['1500', 'EUR']),
    );
    assert.deepEqual(pick(decision), {
      effect: 'confirm',
      ruleId: 'confirm-1000',
      policyVersion: 7,
      message: 'Confirm payments above 1,000 EUR.',
      approverRole: undefined,
    });
    assert.deepEqual(decision.budgets, [
      { ruleId: 'daily', scope: 'user', period: 'day', limitMinor: 2_500_000, currency: 'EUR' },
      {
        ruleId: 'monthly-sub',
        scope: 'subscription',
        period: 'month',
        limitMinor: 100_000_000,
        currency: 'EUR',
      },
    ]);
  });

  it('approve over confirm, with the role and a default message', () => {
    const decision = governor.decide(call({}, ['20000', 'USD'])); // 17,200 EUR
    assert.equal(decision.effect, 'approve');
    assert.equal(decision.ruleId, 'approve-10000');
    assert.equal(decision.approverRole, 'payments-approver');
    assert.match(decision.message ?? '', /approval of a second person .*approve-10000/);
  });

  it('deny over everything, whatever the order of the rules', () => {
    assert.deepEqual(pick(governor.decide(call({}, ['150000', 'EUR']))).effect, 'deny');
    const reversed = governorOf([...rules].reverse());
    const decision = reversed.decide(call({}, ['150000', 'EUR']));
    assert.equal(decision.ruleId, 'deny-big');
    assert.equal(decision.message, 'Too large.');
  });

  it('the first matching rule of the strongest effect decides', () => {
    const two = governorOf([
      rule('first', 'true', 'approve', { role: 'a' }),
      rule('second', 'true', 'approve', { role: 'b' }),
    ]);
    assert.equal(two.decide(call()).approverRole, 'a');
  });

  it('empty is true exactly when there are no rules', () => {
    assert.equal(governorOf([]).empty, true);
    assert.equal(governorOf([rule('a', 'false', 'deny')]).empty, false);
  });
});

describe('an expression that fails at call time fails closed (docs/decisions.md, D-226)', () => {
  it('deny, approve and confirm rules count as matched, allow as not, and the trace says why', () => {
    const governor = governorOf([
      rule('allow-missing', 'money.base > 1.0', 'allow'),
      rule('confirm-missing', 'args.missing == "x"', 'confirm'),
      rule('budget-missing', 'money.base > 1.0', 'budget', {
        budget: { scope: 'user', period: 'day', limit: '5' },
      }),
    ]);
    const decision = governor.decide(call());
    assert.equal(decision.effect, 'confirm');
    assert.equal(decision.ruleId, 'confirm-missing');
    assert.deepEqual(
      decision.budgets.map((b) => b.ruleId),
      ['budget-missing'],
    );
    const [allow, confirm] = decision.trace;
    assert.equal(allow?.matched, false);
    assert.match(allow?.error ?? '', /No such key: base \(counted as not matched\)/);
    assert.equal(confirm?.matched, true);
    assert.match(confirm?.error ?? '', /No such key: missing \(counted as matched: fails closed\)/);
  });

  it('a dyn expression that is not a bool at call time is an error, not a crash', () => {
    const decision = governorOf([rule('d', 'args.purpose', 'deny')]).decide(call());
    assert.equal(decision.effect, 'deny');
    assert.match(decision.trace[0]?.error ?? '', /gave a string, not a bool/);
  });

  it('a division by zero denies rather than throws', () => {
    const decision = governorOf([rule('z', '1 / (size(args) - 2) > 0', 'deny')]).decide(call());
    assert.equal(decision.effect, 'deny');
    assert.match(decision.trace[0]?.error ?? '', /division by zero/);
  });
});

function pick(decision: PolicyDecision) {
  const { effect, ruleId, policyVersion, message, approverRole } = decision;
  return { effect, ruleId, policyVersion, message, approverRole };
}
