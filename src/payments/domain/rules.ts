// The one rule engine of payment orders (pure): every rule of the table (rules/table.ts) runs and every
// problem is reported, each with its JSON pointer, stable code, ISO 20022 reason code and message.
// createPayment and updatePayment refuse an order with problems (422); validatePayment reports them.
import type { PaymentOrder } from './payment-order.js';
import { evaluate, type RuleContext, type RuleViolation } from './rules/rule.js';
import { RULES } from './rules/table.js';

export type { PayerAccount, RuleContext, RuleViolation } from './rules/rule.js';

/** Every business-rule problem of a payment order (empty when it may be accepted). */
export function checkPaymentRules(order: PaymentOrder, context: RuleContext): RuleViolation[] {
  return evaluate(RULES, order, context);
}
