// The one rule engine of payment records (pure): every rule runs and every problem is reported, each with
// its JSON pointer, stable code, ISO 20022 reason code and message. createPayment and updatePayment refuse a
// record with problems (422); validatePayment reports them. The rules are listed in docs/decisions.md.
import type { PaymentRecord } from './record-access.js';
import { checkCompleteness } from './rules/completeness.js';
import { checkDateRules } from './rules/dates.js';
import { checkFieldRules } from './rules/fields.js';
import { checkPartyRules } from './rules/parties.js';
import { checkPayerAccount, type PayerAccount } from './rules/payer-account.js';
import { checkSchemeRules } from './rules/schemes.js';
import type { RuleViolation } from './rules/violation.js';

export type { RuleViolation } from './rules/violation.js';
export { checkFieldRules } from './rules/fields.js';
export type { PayerAccount } from './rules/payer-account.js';

/** What the rules know beyond the record itself. */
export interface RuleContext {
  /** The service's clock (tests pin it). */
  readonly now: Date;
  /** The Used-Mechanism header, when the request has one (it may name the scheme). */
  readonly usedMechanism?: string | undefined;
  /**
   * The calling user's accounts with their available balances: the user owns these and nothing else (none:
   * every payer account is refused). Undefined only for a call without a user (validatePayment may be
   * anonymous and stores nothing): there is no one whose ownership could be checked.
   */
  readonly payerAccounts?: readonly PayerAccount[] | undefined;
}

/** Every business-rule problem of a payment record (empty when it may be accepted). */
export function checkPaymentRules(record: PaymentRecord, context: RuleContext): RuleViolation[] {
  return [
    ...checkCompleteness(record),
    ...checkFieldRules(record),
    ...checkPartyRules(record),
    ...checkDateRules(record, context.now),
    ...checkSchemeRules(record, context.usedMechanism),
    ...(context.payerAccounts ? checkPayerAccount(record, context.payerAccounts, context.now) : []),
  ];
}
