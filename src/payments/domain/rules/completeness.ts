// Completeness (pure): a payment order names the account that pays, the account paid and the amount with
// its currency. createPayment's schema already requires them (400); updatePayment replaces the whole
// record, so a body without them is refused here (422) instead of erasing the stored values, and
// validatePayment reports them like any other problem.
import { at, num, str, type PaymentRecord } from '../record-access.js';
import { isCreditTransfer } from './parties.js';
import type { RuleViolation } from './violation.js';

const REQUIRED: readonly (readonly [string[], string, string])[] = [
  [
    ['payerAccountReference', 'paymentInstructionAccount', 'accountId'],
    'RR01',
    'the payer account',
  ],
  [['paymentInstruction', 'amount', 'instructedAmount'], 'AM12', 'the amount'],
  [['paymentInstruction', 'amount', 'instructedCurrency'], 'AM11', 'the currency of the amount'],
];
const PAYEE: readonly [string[], string, string] = [
  ['payeeAccountReference', 'paymentInstructionAccount', 'accountId'],
  'AC03',
  'the payee account',
];

export function checkCompleteness(record: PaymentRecord): RuleViolation[] {
  // A credit transfer's payee account is the creditor rule's (CREDITOR_REQUIRED).
  const required = isCreditTransfer(record) ? REQUIRED : [...REQUIRED, PAYEE];
  return required
    .filter(([path]) => {
      const value = at(record, ...path);
      return str(value) === undefined && num(value) === undefined;
    })
    .map(([path, reason, what]) => ({
      pointer: `/${path.join('/')}`,
      code: 'PAYMENT_INCOMPLETE',
      reason,
      message: `${what} is required: a payment order is always sent whole, with the accounts and the amount`,
    }));
}
