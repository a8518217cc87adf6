// The CEL environment rules are written in (docs/decisions.md, D-224): the variables a
// `when` expression sees, with their types, so that a misspelt field of `tool` or `caller`, an unknown
// variable or a non-boolean expression is refused when the rule is compiled, not when a call arrives.
// `args` and `money` are maps (their keys depend on the tool); `now` is a timestamp.
import { Environment } from '@marcbachmann/cel-js';
import type { GovernedCall } from '../contracts.js';
import { minorUnit } from '../../../shared/currencies.js';

/** Bounds on one expression, checked when it is parsed (a rule is at most 4096 characters anyway). */
const LIMITS = { maxAstNodes: 2000, maxDepth: 64, maxListElements: 500, maxMapEntries: 500 };

/** The one environment (read-only once built; cel-js parses against it without changing it). */
export const policyEnvironment = new Environment({ limits: LIMITS })
  .registerVariable({
    name: 'tool',
    description: 'the tool called: name, backend, securityClass, annotations (destructiveHint …)',
    schema: {
      name: 'string',
      backend: 'string',
      securityClass: 'string',
      annotations: 'map<string, dyn>',
    },
  })
  .registerVariable('args', 'map<string, dyn>', { description: 'the arguments of the call' })
  .registerVariable({
    name: 'caller',
    description:
      'application, subscription, environment, subject (null when anonymous), claims, scopes',
    schema: {
      application: 'string',
      subscription: 'string',
      environment: 'string',
      subject: 'dyn',
      claims: 'map<string, dyn>',
      scopes: 'list<string>',
    },
  })
  .registerVariable('now', 'google.protobuf.Timestamp', { description: 'when the call arrived' })
  .registerVariable('money', 'map<string, dyn>', {
    description:
      'for calls that move money: amount, currency, base (in the base currency), baseMinor, baseCurrency; empty otherwise',
  });

/** The values a `when` expression is evaluated over, built once per call for all rules. */
export function celContext(call: GovernedCall): Record<string, unknown> {
  return {
    tool: {
      name: call.tool.name,
      backend: call.tool.backend,
      securityClass: call.tool.securityClass,
      annotations: { ...call.tool.annotations },
    },
    args: call.arguments,
    caller: {
      application: call.caller.application,
      subscription: call.caller.subscription,
      environment: call.caller.environment,
      subject: call.caller.subject,
      claims: call.caller.claims,
      scopes: [...call.caller.scopes],
    },
    now: call.at,
    money: moneyOf(call),
  };
}

function moneyOf(call: GovernedCall): Record<string, unknown> {
  const money = call.money;
  if (money === undefined) return {};
  const decimals = minorUnit(money.baseCurrency) ?? 2;
  return {
    amount: money.amount,
    currency: money.currency,
    baseCurrency: money.baseCurrency,
    // A double for comparisons such as `money.base > 1000` (exact for any amount below 2^53 minor units
    // divided by a power of ten, which is how the comparison reads); `baseMinor` is the exact integer.
    base: money.baseMinor / 10 ** decimals,
    baseMinor: BigInt(money.baseMinor),
  };
}
