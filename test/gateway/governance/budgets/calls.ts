// GovernedCalls and BudgetLimits for the budget tests.
import { randomUUID } from 'node:crypto';
import type { BudgetLimit, GovernedCall } from '../../../../src/gateway/governance/contracts.js';

export interface CallOptions {
  readonly baseMinor?: number | null;
  readonly subject?: string | null;
  readonly issuer?: string;
  readonly subscription?: string;
  readonly at?: Date;
}

export function paymentCall(options: CallOptions = {}): GovernedCall {
  const baseMinor = options.baseMinor === undefined ? 10_000 : options.baseMinor;
  return {
    callId: randomUUID(),
    tool: {
      name: 'createPayment',
      backend: 'payments',
      securityClass: 'user-scoped',
      annotations: {},
    },
    arguments: {},
    argumentsHash: '0'.repeat(64),
    caller: {
      application: 'app',
      subscription: options.subscription ?? 'sub_1',
      environment: 'test',
      subject: options.subject === undefined ? 'alice' : options.subject,
      claims: options.issuer ? { iss: options.issuer } : {},
      scopes: [],
    },
    at: options.at ?? new Date(),
    ...(baseMinor === null
      ? {}
      : {
          money: {
            amount: (baseMinor / 100).toFixed(2),
            currency: 'EUR',
            baseCurrency: 'EUR',
            baseMinor,
          },
        }),
  };
}

export function limit(
  limitMinor: number,
  scope: BudgetLimit['scope'] = 'user',
  period: BudgetLimit['period'] = 'day',
  ruleId = `budget-${scope}-${period}`,
): BudgetLimit {
  return { ruleId, scope, period, limitMinor, currency: 'EUR' };
}
