// Payer account rules (pure; the accounts are loaded at the edge): the payer account is one of the calling
// user's own (a user with no account owns nothing), and an immediate payment does not exceed its available
// balance.
import { minorUnit } from '../currencies.js';
import { at, num, str, type PaymentRecord } from '../record-access.js';
import { initialStatus } from '../record-conversion.js';
import { electronicIban } from './identifiers.js';
import type { RuleViolation } from './violation.js';

export interface PayerAccount {
  readonly accountId: string;
  readonly currency: string;
  /** Available balance in minor units of `currency` (may be negative). */
  readonly availableMinor: bigint;
}

const PAYER = '/payerAccountReference/paymentInstructionAccount/accountId';

export function checkPayerAccount(
  record: PaymentRecord,
  accounts: readonly PayerAccount[],
  now: Date,
): RuleViolation[] {
  const id = str(at(record, 'payerAccountReference', 'paymentInstructionAccount', 'accountId'));
  if (id === undefined) return [];
  const account = accounts.find((a) => a.accountId === electronicIban(id));
  if (!account) {
    return [
      {
        pointer: PAYER,
        code: 'PAYER_ACCOUNT_NOT_OWNED',
        reason: 'BE01',
        message:
          accounts.length === 0
            ? `${electronicIban(id)} is not one of your accounts; you have no account to pay from`
            : `${electronicIban(id)} is not one of your accounts; pay from ${accounts
                .map((a) => a.accountId)
                .join(', ')}`,
      },
    ];
  }
  const amount = num(at(record, 'paymentInstruction', 'amount', 'instructedAmount'));
  const currency = str(at(record, 'paymentInstruction', 'amount', 'instructedCurrency'));
  const digits = currency === undefined ? undefined : minorUnit(currency);
  if (
    amount === undefined ||
    currency !== account.currency ||
    digits === undefined ||
    initialStatus(record, now) !== 'INITIATED'
  )
    return [];
  const amountMinor = BigInt(Math.round(amount * 10 ** digits));
  if (amountMinor <= account.availableMinor) return [];
  return [
    {
      pointer: '/paymentInstruction/amount/instructedAmount',
      code: 'INSUFFICIENT_FUNDS',
      reason: 'AM04',
      message: `${currency} ${amount.toFixed(digits)} exceeds the available balance of ${currency} ${format(
        account.availableMinor,
        digits,
      )} on ${account.accountId}`,
    },
  ];
}

function format(minor: bigint, digits: number): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? `.${text.slice(text.length - digits)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
