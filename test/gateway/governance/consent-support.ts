// Governed calls and policy decisions built by the consent suites (no policy engine involved: the
// consent store is exercised directly, as the call path will use it).
import { createHash, randomUUID } from 'node:crypto';
import type { GovernedCall, PolicyDecision } from '../../../src/gateway/governance/contracts.js';

export const ISSUER = 'http://127.0.0.1:9/dev-idp';

/** A createPayment call by `subject` (the arguments' hash is computed from their JSON, stable per test). */
export function paymentCall(
  options: {
    subject?: string | null;
    amount?: string;
    subscription?: string;
    issuer?: string;
    tool?: string;
    payee?: string;
  } = {},
): GovernedCall {
  const amount = options.amount ?? '1500.00';
  const args = {
    body: {
      payerAccountReference: { paymentInstructionAccount: { accountId: 'DE89370400440532013000' } },
      payeeAccountReference: {
        paymentInstructionAccount: { accountId: options.payee ?? 'GB29NWBK60161331926819' },
      },
      payeeReference: { involvedParty: { partyName: 'Ada Lovelace' } },
      paymentInstruction: {
        amount: { instructedAmount: Number(amount), instructedCurrency: 'EUR' },
        paymentDates: { requestedExecutionDate: '2026-08-03T00:00:00Z' },
      },
    },
  };
  const subject = options.subject === undefined ? 'alice' : options.subject;
  return {
    callId: randomUUID(),
    tool: {
      name: options.tool ?? 'createPayment',
      backend: 'payments',
      securityClass: 'user-scoped',
      annotations: { destructiveHint: true },
    },
    arguments: args,
    argumentsHash: createHash('sha256').update(JSON.stringify(args)).digest('hex'),
    caller: {
      application: 'invoice-agent',
      subscription: options.subscription ?? 'sub_1',
      environment: 'development',
      subject,
      claims: subject === null ? {} : { iss: options.issuer ?? ISSUER, sub: subject },
      scopes: [],
    },
    at: new Date(),
    money: {
      amount,
      currency: 'EUR',
      baseCurrency: 'EUR',
      baseMinor: Math.round(Number(amount) * 100),
    },
  };
}

export function consentDecision(effect: 'confirm' | 'approve', policyVersion = 1): PolicyDecision {
  return {
    effect,
    ruleId: effect === 'confirm' ? 'payments-over-1000' : 'payments-over-10000',
    policyVersion,
    message:
      effect === 'confirm'
        ? 'Payments above 1,000 EUR need your confirmation.'
        : 'Payments above 10,000 EUR need a second person with the role payments-approver.',
    ...(effect === 'approve' ? { approverRole: 'payments-approver' } : {}),
    budgets: [],
    trace: [],
  };
}
