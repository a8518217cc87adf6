// Party rules (pure): a credit transfer names its creditor (payee party and account).
import { at, str, type PaymentRecord } from '../record-access.js';
import type { RuleViolation } from './violation.js';

/** A credit transfer unless the record says it is a debit (indicator, direct-debit service or method). */
export function isCreditTransfer(record: PaymentRecord): boolean {
  const arrangement = (key: string) =>
    at(record, 'paymentProcessingConfiguration', 'paymentArrangement', key);
  return !(
    at(record, 'paymentInstruction', 'creditDebtIndicator') === 'DEBIT' ||
    arrangement('serviceType') === 'DIRECT_DEBIT_SERVICE' ||
    arrangement('paymentMethod') === 'DD'
  );
}

export function checkPartyRules(record: PaymentRecord): RuleViolation[] {
  const errors: RuleViolation[] = [];
  if (!isCreditTransfer(record)) return errors;
  if (str(at(record, 'payeeReference', 'involvedParty', 'partyName')) === undefined) {
    errors.push({
      pointer: '/payeeReference/involvedParty/partyName',
      code: 'CREDITOR_REQUIRED',
      reason: 'RR03',
      message: 'a credit transfer needs its creditor: the name of the payee party',
    });
  }
  if (
    str(at(record, 'payeeAccountReference', 'paymentInstructionAccount', 'accountId')) === undefined
  ) {
    errors.push({
      pointer: '/payeeAccountReference/paymentInstructionAccount/accountId',
      code: 'CREDITOR_REQUIRED',
      reason: 'AC03',
      message: "a credit transfer needs its creditor's account: the payee account id",
    });
  }
  return errors;
}
