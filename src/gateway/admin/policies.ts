// Governance rules as the admin plane manages them (issue 25): the current set and its version, the
// history, a save (compiled and checked first, refused with 422 naming the rule and field; optimistic
// concurrency on the version; one transaction with its audit entry) and the dry run (a sample call and the
// decision the current set, or an unsaved one, would make, with the deciding rule, the reason and the
// trace). Every replica applies a saved set within gateway.governance.policyRefreshMs (live-governor.ts).
import { createHash, randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { GovernanceConfig, PolicyRuleConfig } from '../../config/gateway-governance.js';
import type { Database } from '../../shared/db/types.js';
import type { SecurityClass, ToolAnnotations } from '../catalogue/types.js';
import type { GovernedCall, GovernedMoney, PolicyDecision } from '../governance/contracts.js';
import { convertMoney } from '../governance/money.js';
import {
  compileRules,
  type CompiledRule,
  type PolicyRule,
  type RuleProblem,
} from '../governance/policy/compile.js';
import { createGovernor } from '../governance/policy/governor.js';
import { PolicyVersionStore, type StoredPolicyVersion } from '../governance/policy/store.js';
import type { Actor } from './actor.js';
import type { AuditSink } from './audit-sink.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { AdminError, requireAdmin, type FieldInput } from './errors.js';

export interface PolicySet {
  /** `stored`: saved through the admin API; `configuration`: gateway.policies (version 0). */
  readonly source: 'stored' | 'configuration';
  readonly version: number;
  readonly rules: readonly PolicyRule[];
  readonly createdAt?: string | undefined;
  readonly createdBy?: string | undefined;
}

export const PolicyPutSchema = Type.Object(
  {
    rules: Type.Array(Type.Unknown(), {
      maxItems: 500,
      description: 'the whole rule set, in order (each rule as gateway.policies spells it)',
    }),
    version: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'the version this set replaces (instead of If-Match)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PolicyPut = Static<typeof PolicyPutSchema>;

const Annotations = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 200 })),
    readOnlyHint: Type.Optional(Type.Boolean()),
    destructiveHint: Type.Optional(Type.Boolean()),
    idempotentHint: Type.Optional(Type.Boolean()),
    openWorldHint: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const DryRunSchema = Type.Object(
  {
    tool: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 64 }),
        backend: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        securityClass: Type.Optional(
          Type.Union([
            Type.Literal('public'),
            Type.Literal('user-scoped'),
            Type.Literal('optional'),
          ]),
        ),
        annotations: Type.Optional(Annotations),
      },
      {
        additionalProperties: false,
        description:
          'the tool: looked up in the catalogue; fields given here replace the catalogue’s (and are required for a tool it does not have)',
      },
    ),
    arguments: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
    caller: Type.Object(
      {
        application: Type.String({ maxLength: 200, default: 'dry-run' }),
        subscription: Type.String({ maxLength: 200, default: 'dry-run' }),
        environment: Type.String({ maxLength: 64, default: 'development' }),
        subject: Type.Union([Type.String({ maxLength: 500 }), Type.Null()], { default: null }),
        claims: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
        scopes: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100, default: [] }),
      },
      { additionalProperties: false, default: {} },
    ),
    money: Type.Optional(
      Type.Object(
        {
          amount: Type.String({ minLength: 1, maxLength: 40 }),
          currency: Type.String({ pattern: '^[A-Z]{3}$' }),
        },
        { additionalProperties: false },
      ),
    ),
    at: Type.Optional(
      Type.String({ format: 'date-time', description: 'when the call happens (default: now)' }),
    ),
    rules: Type.Optional(
      Type.Array(Type.Unknown(), {
        maxItems: 500,
        description: 'an unsaved rule set to try instead of the current one',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DryRun = Static<typeof DryRunSchema>;

export interface DryRunAnswer {
  /** Which set decided: the current one (stored or configuration) or the unsaved one in the request. */
  readonly rules: 'stored' | 'configuration' | 'unsaved';
  readonly version: number | null;
  readonly decision: PolicyDecision;
  /** The rule that decided, as written; absent when no consent rule matched. */
  readonly decidedBy?:
    | {
        readonly index: number;
        readonly id: string;
        readonly effect: string;
        readonly when: string;
        readonly description?: string | undefined;
      }
    | undefined;
  /** Why, in one or two sentences. */
  readonly explanation: string;
  readonly money?: GovernedMoney | undefined;
  readonly call: {
    readonly tool: GovernedCall['tool'];
    readonly caller: GovernedCall['caller'];
    readonly at: string;
    readonly argumentsHash: string;
  };
}

/** A tool as the catalogue knows it (what the dry run needs of it). */
export interface PolicyToolInfo {
  readonly backend: string;
  readonly securityClass: SecurityClass;
  readonly annotations: ToolAnnotations;
}

export interface PolicyServiceDeps {
  readonly db: Database;
  readonly audit: AuditSink;
  readonly governance: GovernanceConfig;
  /** gateway.policies: the set in force while none is stored. */
  readonly configured: readonly PolicyRuleConfig[];
  /** The tool in the catalogue, if there is one by that name. */
  readonly lookupTool: (name: string) => Promise<PolicyToolInfo | undefined>;
  readonly now?: () => Date;
}

export class PolicyService {
  private readonly store: PolicyVersionStore;

  constructor(private readonly deps: PolicyServiceDeps) {
    this.store = new PolicyVersionStore(deps.db);
  }

  async current(actor: Actor): Promise<PolicySet> {
    requireAdmin(actor);
    return this.currentSet();
  }

  async versions(actor: Actor, limit?: number): Promise<StoredPolicyVersion[]> {
    requireAdmin(actor);
    return this.store.list(limit);
  }

  /**
   * Replaces the rule set (admins): compiled first (422 POLICY_INVALID naming every rule and field at
   * fault), then stored as the next version if `expected` is still the current one (412 otherwise).
   */
  async save(actor: Actor, rules: readonly unknown[], expected: number): Promise<PolicySet> {
    requireAdmin(actor);
    const compiled = this.compile(rules);
    const checked = compiled.map((c) => c.rule);
    return this.deps.db.transaction(async (tx) => {
      const latest = await this.store.latestVersion(tx);
      const before = latest === 0 ? undefined : await this.store.get(latest, tx);
      const saved = await this.store.append(tx, expected, checked, actor.subject, this.now());
      if (saved === undefined) throw conflict(expected, latest);
      await this.deps.audit.append(
        {
          actor,
          action: 'policies.update',
          target: { type: 'policies', id: String(saved.version) },
          before: before
            ? { version: before.version, rules: before.rules }
            : { version: 0, source: 'configuration', rules: this.deps.configured },
          after: { version: saved.version, rules: saved.rules },
        },
        tx,
      );
      return { source: 'stored', ...saved };
    });
  }

  /** The decision for a sample call (admins): the current set's, or that of the unsaved `rules`. */
  async dryRun(actor: Actor, sample: DryRun): Promise<DryRunAnswer> {
    requireAdmin(actor);
    let rules: readonly CompiledRule[];
    let which: DryRunAnswer['rules'];
    let version: number;
    if (sample.rules !== undefined) {
      rules = this.compile(sample.rules);
      which = 'unsaved';
      version = (await this.currentSet()).version;
    } else {
      const set = await this.currentSet();
      rules = this.compile(set.rules);
      which = set.source;
      version = set.version;
    }
    const call = await this.sampleCall(sample);
    const governor = createGovernor({
      version,
      rules,
      baseCurrency: this.deps.governance.baseCurrency,
    });
    const decision = governor.decide(call);
    const decider = rules.find((r) => r.rule.id === decision.ruleId);
    return {
      rules: which,
      version: which === 'unsaved' ? null : version,
      decision,
      ...(decider === undefined
        ? {}
        : {
            decidedBy: {
              index: decider.index,
              id: decider.rule.id,
              effect: decider.rule.effect,
              when: decider.rule.when,
              ...(decider.rule.description === undefined
                ? {}
                : { description: decider.rule.description }),
            },
          }),
      explanation: explain(decision, decider),
      ...(call.money === undefined ? {} : { money: call.money }),
      call: {
        tool: call.tool,
        caller: call.caller,
        at: call.at.toISOString(),
        argumentsHash: call.argumentsHash,
      },
    };
  }

  private async currentSet(): Promise<PolicySet> {
    const latest = await this.store.latestVersion();
    const stored = latest === 0 ? undefined : await this.store.get(latest);
    if (stored !== undefined) return { source: 'stored', ...stored };
    return { source: 'configuration', version: 0, rules: this.deps.configured };
  }

  private compile(rules: readonly unknown[]): readonly CompiledRule[] {
    const compiled = compileRules(rules, this.deps.governance);
    if (!compiled.ok) throw invalidRules(compiled.problems);
    return compiled.rules;
  }

  private async sampleCall(sample: DryRun): Promise<GovernedCall> {
    const known = await this.deps.lookupTool(sample.tool.name);
    const backend = sample.tool.backend ?? known?.backend;
    const securityClass = sample.tool.securityClass ?? known?.securityClass;
    if (backend === undefined || securityClass === undefined)
      throw new AdminError(
        'UNKNOWN_TOOL',
        `There is no tool named "${sample.tool.name}": give tool.backend and tool.securityClass (and tool.annotations) to try one the catalogue does not have.`,
      );
    let money: GovernedMoney | undefined;
    if (sample.money !== undefined) {
      const converted = convertMoney(
        sample.money.amount,
        sample.money.currency,
        this.deps.governance,
      );
      if ('error' in converted)
        throw new AdminError('VALIDATION_FAILED', `invalid body: money ${converted.error}`, [
          { field: 'money', message: converted.error },
        ]);
      money = converted;
    }
    const args = sample.arguments;
    return {
      callId: randomUUID(),
      tool: {
        name: sample.tool.name,
        backend,
        securityClass,
        annotations: sample.tool.annotations ?? known?.annotations ?? {},
      },
      arguments: args,
      argumentsHash: createHash('sha256').update(canonicalJson(args)).digest('hex'),
      caller: { ...sample.caller },
      at: sample.at === undefined ? this.now() : new Date(sample.at),
      ...(money === undefined ? {} : { money }),
    };
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }
}

/** 422 POLICY_INVALID: every problem, each naming the rule (index and id) and the field. */
export function invalidRules(problems: readonly RuleProblem[]): AdminError {
  const fields: FieldInput[] = problems.map((p) => ({
    field: p.field,
    message:
      p.index === null
        ? p.message
        : `rule ${p.index}${p.id === null ? '' : ` "${p.id}"`}, ${p.field.split('.').slice(2).join('.') || 'rule'}: ${p.message}`,
  }));
  const first = fields[0]?.message ?? 'invalid rules';
  return new AdminError(
    'POLICY_INVALID',
    `The rules were not saved: ${first}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ''}.`,
    fields,
  );
}

function conflict(expected: number, latest: number): AdminError {
  return new AdminError(
    'POLICY_VERSION_CONFLICT',
    `The rules changed meanwhile: you edited version ${expected}, the current version is ${latest}. Get the current rules and apply your change to them.`,
  );
}

function explain(decision: PolicyDecision, decider: CompiledRule | undefined): string {
  const budgets =
    decision.budgets.length === 0
      ? ''
      : ` Budgets: ${decision.budgets.map((b) => `"${b.ruleId}" (${b.scope} per ${b.period})`).join(', ')}.`;
  const failed = decision.trace.filter((t) => t.error !== undefined).map((t) => `"${t.ruleId}"`);
  const errors =
    failed.length === 0 ? '' : ` Rules that failed to evaluate: ${failed.join(', ')} (see trace).`;
  if (decider === undefined)
    return `No allow, deny, confirm or approve rule matched: the call is allowed.${budgets}${errors}`;
  const matched = decision.trace.filter((t) => t.matched).length;
  return `Rule ${decider.index} "${decider.rule.id}" (${decision.effect}) decided: its condition matched, and of the ${matched} matching rule(s) none has a stronger effect (deny > approve > confirm > allow).${budgets}${errors}`;
}
