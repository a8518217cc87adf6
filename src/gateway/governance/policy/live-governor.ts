// The rule set a running gateway enforces, swapped without a restart (issue 25: "applied on every replica
// within seconds without a restart, as the identity-provider settings are"). At start it is the
// configuration's `gateway.policies` (version 0) unless the admin API has stored a version. After that,
// every `gateway.governance.policyRefreshMs` one cheap query (the highest stored version) tells whether a
// newer set exists. Only then is the set read, compiled and swapped in with one assignment. Calls read the
// current governor from memory, so no I/O is added to the call path. A stored set that cannot be compiled
// (it passed compilation when it was saved, so only a changed base currency or evaluator can do this) is
// logged, and the replica keeps the set it has (docs/decisions.md, D-227).
import type { GovernanceConfig, PolicyRuleConfig } from '../../../config/gateway-governance.js';
import type { Database } from '../../../shared/db/types.js';
import type { Logger } from '../../../shared/log/logger.js';
import type { Governor } from '../contracts.js';
import { compileRules, describeProblems } from './compile.js';
import { createGovernor } from './governor.js';
import { PolicyVersionStore, type PolicyVersionSource } from './store.js';

/** Runs `tick` every `ms` until the returned function is called (tests pass one they drive). */
export type Scheduler = (tick: () => void, ms: number) => () => void;

const intervalScheduler: Scheduler = (tick, ms) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

export interface LiveGovernorOptions {
  readonly source: PolicyVersionSource;
  readonly governance: GovernanceConfig;
  /** gateway.policies: in force while no version is stored. */
  readonly configured: readonly PolicyRuleConfig[];
  readonly logger: Logger;
  readonly schedule?: Scheduler | undefined;
}

/** A failure to compile the configuration's rules: startup stops with the rule and field named. */
export class PolicyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyConfigError';
  }
}

export class LiveGovernor {
  private governor: Governor;
  private readonly configuredGovernor: Governor;
  private stopTimer: (() => void) | undefined;
  private pending: Promise<void> | undefined;
  /** A stored version that failed to compile (not retried until a newer one appears). */
  private failedVersion = 0;

  constructor(private readonly options: LiveGovernorOptions) {
    const compiled = compileRules(options.configured, options.governance);
    if (!compiled.ok)
      throw new PolicyConfigError(
        `gateway.policies cannot be compiled: ${compiled.problems
          .map(
            (p) =>
              `gateway.policies.${p.field.replace(/^rules\.?/, '')}${p.id === null ? '' : ` (${p.id})`}: ${p.message}`,
          )
          .join('; ')}`,
      );
    this.configuredGovernor = createGovernor({
      version: 0,
      rules: compiled.rules,
      baseCurrency: options.governance.baseCurrency,
    });
    this.governor = this.configuredGovernor;
  }

  /** The rule set in force (one memory read). */
  current(): Governor {
    return this.governor;
  }

  /** Applies the stored version if there is one, then checks every policyRefreshMs. */
  async start(): Promise<void> {
    await this.refresh();
    // At startup a stored set that cannot be applied stops the gateway rather than let the file's
    // (perhaps weaker) rules govern in its place.
    if (this.failedVersion !== 0)
      throw new PolicyConfigError(
        `stored policy version ${this.failedVersion} cannot be applied (see the log); store a corrected set`,
      );
    this.stopTimer ??= (this.options.schedule ?? intervalScheduler)(
      () => void this.refresh(),
      this.options.governance.policyRefreshMs,
    );
  }

  /** Checks for a newer stored version and applies it (one check at a time; never throws). */
  refresh(): Promise<void> {
    this.pending ??= this.check().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  close(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
  }

  private async check(): Promise<void> {
    let latest: number;
    try {
      latest = await this.options.source.latestVersion();
    } catch (error) {
      this.options.logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'stored policies could not be checked: keeping the current rules',
      );
      return;
    }
    if (latest === this.governor.version || latest === this.failedVersion) return;
    try {
      const stored = latest === 0 ? undefined : await this.options.source.get(latest);
      if (stored === undefined) {
        this.governor = this.configuredGovernor;
        return;
      }
      const compiled = compileRules(stored.rules, this.options.governance);
      if (!compiled.ok) throw new Error(describeProblems(compiled.problems));
      this.governor = createGovernor({
        version: stored.version,
        rules: compiled.rules,
        baseCurrency: this.options.governance.baseCurrency,
      });
      this.options.logger.info(
        { version: stored.version, rules: compiled.rules.length },
        'policy rules applied',
      );
    } catch (error) {
      this.failedVersion = latest;
      this.options.logger.error(
        { version: latest, reason: error instanceof Error ? error.message : String(error) },
        'stored policy rules cannot be applied: keeping the current rules',
      );
    }
  }
}

export interface OpenLiveGovernorOptions {
  readonly db: Database;
  readonly governance: GovernanceConfig;
  readonly policies: readonly PolicyRuleConfig[];
  readonly logger: Logger;
  readonly schedule?: Scheduler | undefined;
}

/**
 * The rules in force for this deployment, started: the configuration's, replaced by versions stored through
 * the admin API. Throws PolicyConfigError when the configuration's rules do not compile.
 */
export async function openLiveGovernor(options: OpenLiveGovernorOptions): Promise<LiveGovernor> {
  const live = new LiveGovernor({
    source: new PolicyVersionStore(options.db),
    governance: options.governance,
    configured: options.policies,
    logger: options.logger,
    schedule: options.schedule,
  });
  await live.start();
  return live;
}
