// Configuration of governed actions (issue 25): `gateway.governance` (the base currency and the rates
// amounts are converted with) and `gateway.policies` (the rules, in order). The schema checks each rule's
// shape; the gateway compiles the CEL of every rule at startup and names the rule on error.
import { Type, type Static } from '@sinclair/typebox';
import { BudgetsConfigSchema } from './gateway-governance-budgets.js';
import { isCurrency } from '../shared/currencies.js';
import type { DeepReadonly } from './deep-readonly.js';
import { ConfigError } from './errors.js';
import { validateAgainstSchema } from './validate.js';

const CURRENCY = '^[A-Z]{3}$';
/** A non-negative decimal written as text: "1.08", "25000", "0.0125". */
export const DECIMAL_TEXT = '^[0-9]{1,30}(\\.[0-9]{1,30})?$';

const Amount = Type.Union(
  [Type.String({ pattern: DECIMAL_TEXT }), Type.Number({ exclusiveMinimum: 0, maximum: 1e15 })],
  { description: 'a positive decimal (string, exact) or number' },
);

export const ApprovalWebhookSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^https?://',
      description: 'where a JSON announcement of every new approval is POSTed',
    }),
    secret: Type.String({
      minLength: 16,
      description:
        'HMAC-SHA256 key of the `Toolgate-Signature` header over `<timestamp>.<body>` (use ${env:NAME})',
    }),
    timeoutMs: Type.Integer({ minimum: 100, maximum: 60000, default: 5000 }),
    retries: Type.Integer({
      minimum: 0,
      maximum: 10,
      default: 3,
      description: 'further attempts after a failed one, with doubling back-off from 500 ms',
    }),
  },
  { additionalProperties: false },
);

export const GovernanceApprovalsSchema = Type.Object(
  {
    ttlSeconds: Type.Integer({
      minimum: 30,
      maximum: 7 * 86400,
      default: 900,
      description:
        'how long an approval may be decided and its receipt used, from the moment the call asked for it',
    }),
    webhook: Type.Optional(ApprovalWebhookSchema),
  },
  { additionalProperties: false, default: {} },
);

export type GovernanceApprovalsConfig = Static<typeof GovernanceApprovalsSchema>;
export type ApprovalWebhookConfig = Static<typeof ApprovalWebhookSchema>;

export const GovernanceConfigSchema = Type.Object(
  {
    baseCurrency: Type.String({
      pattern: CURRENCY,
      default: 'EUR',
      description:
        'ISO 4217 code policies and money budgets count in (`money.base` in rules, budget limits)',
    }),
    rates: Type.Record(Type.String({ pattern: CURRENCY }), Amount, {
      default: {},
      description:
        'ISO 4217 code → value of one unit of it in the base currency; an amount in a currency without a rate cannot be governed and is refused',
    }),
    policyRefreshMs: Type.Integer({
      minimum: 100,
      maximum: 300000,
      default: 2000,
      description:
        'how often each replica checks for a rule set stored through the admin API (PUT /admin/api/v1/policies)',
    }),
    approvals: GovernanceApprovalsSchema,
    budgets: BudgetsConfigSchema,
  },
  { additionalProperties: false, default: {} },
);

export const PolicyEffects = ['allow', 'deny', 'confirm', 'approve', 'budget'] as const;

/** One rule of `gateway.policies` (and of the rule sets stored through the admin API). */
export const PolicyRuleSchema = Type.Object(
  {
    id: Type.String({
      pattern: '^[A-Za-z0-9_.-]{1,64}$',
      description: 'names the rule in decisions, traces, receipts and the audit log',
    }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    when: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'CEL expression of type bool over tool, args, caller, now and money',
    }),
    effect: Type.Union(
      PolicyEffects.map((e) => Type.Literal(e)),
      { description: 'what a matching rule does' },
    ),
    message: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'what the agent (deny) or the person asked for consent sees',
      }),
    ),
    role: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9_.:-]{1,64}$',
        description: 'approve: the role the approver must hold',
      }),
    ),
    budget: Type.Optional(
      Type.Object(
        {
          scope: Type.Union([Type.Literal('user'), Type.Literal('subscription')]),
          period: Type.Union([Type.Literal('day'), Type.Literal('month')]),
          limit: Amount,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const PolicyRulesSchema = Type.Array(PolicyRuleSchema, {
  maxItems: 500,
  default: [],
  description:
    'governance rules, evaluated in order for every tools/call (docs/governance.md); the starting set until one is stored through the admin API',
});

/** Spread into the gateway's schema: `gateway.governance` and `gateway.policies`. */
export const GatewayGovernanceProperties = {
  governance: GovernanceConfigSchema,
  policies: PolicyRulesSchema,
};

export type GovernanceConfig = DeepReadonly<Static<typeof GovernanceConfigSchema>>;
export type PolicyRuleConfig = DeepReadonly<Static<typeof PolicyRuleSchema>>;

/** What the schema cannot check: the codes are ISO 4217, the rates positive, the base rate is 1. */
export function checkGovernanceConfig(config: GovernanceConfig): void {
  if (!isCurrency(config.baseCurrency))
    throw new ConfigError(
      `gateway.governance.baseCurrency: ${config.baseCurrency} is not an ISO 4217 currency code`,
    );
  for (const [code, rate] of Object.entries(config.rates)) {
    const at = `gateway.governance.rates.${code}`;
    if (!isCurrency(code)) throw new ConfigError(`${at}: ${code} is not an ISO 4217 currency code`);
    if (!/[1-9]/.test(String(rate)))
      throw new ConfigError(`${at}: ${String(rate)} is invalid: must be greater than 0`);
    if (code === config.baseCurrency && !/^0*1(\.0*)?$/.test(String(rate)))
      throw new ConfigError(
        `${at}: the base currency's own rate must be 1 (it is ${String(rate)})`,
      );
  }
}

/** `gateway.governance` from raw input, defaults filled and checked (tests and tools; the file goes through loadConfig). */
export function parseGovernanceConfig(input: unknown = {}): GovernanceConfig {
  const config = validateAgainstSchema(GovernanceConfigSchema, input ?? {}, 'gateway.governance');
  checkGovernanceConfig(config);
  return config;
}
