// Configuration of money budgets (`gateway.governance.budgets`, issue 25): the time zone of the calendar
// windows and the Redis keys. Which store holds the counters is not configured here: budgets live on the
// store of the quotas (gateway.rateLimit.store), so they are exact across the same replicas.
import { Type, type Static } from '@sinclair/typebox';
import { ConfigError } from './errors.js';
import type { DeepReadonly } from './deep-readonly.js';
import { validateAgainstSchema } from './validate.js';

export const BudgetsConfigSchema = Type.Object(
  {
    timeZone: Type.String({
      minLength: 1,
      maxLength: 64,
      default: 'UTC',
      description:
        'IANA time zone of the calendar day and month a budget counts over (e.g. "Europe/Berlin"); default UTC.',
    }),
    redis: Type.Object(
      {
        keyPrefix: Type.String({ minLength: 1, maxLength: 100, default: 'toolgate:budget:' }),
        commandTimeoutMs: Type.Integer({ minimum: 5, maximum: 10_000, default: 500 }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

export type BudgetsConfig = DeepReadonly<Static<typeof BudgetsConfigSchema>>;

/** Whether the runtime knows `timeZone` as an IANA zone. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** What the schema cannot check: the time zone exists. Run by loadConfig and parseBudgetsConfig. */
export function checkBudgetsConfig(config: Readonly<Pick<BudgetsConfig, 'timeZone'>>): void {
  if (!isKnownTimeZone(config.timeZone))
    throw new ConfigError(
      `gateway.governance.budgets.timeZone: "${config.timeZone}" is not an IANA time zone (e.g. "UTC", "Europe/Berlin")`,
    );
}

/** A `gateway.governance.budgets` slice on its own (tests): the same validator and defaults. */
export function parseBudgetsConfig(input: unknown = {}): BudgetsConfig {
  const config = validateAgainstSchema(
    BudgetsConfigSchema,
    input ?? {},
    'gateway.governance.budgets',
  );
  checkBudgetsConfig(config);
  return config;
}
