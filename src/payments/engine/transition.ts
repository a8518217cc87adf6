// One status change of a payment with its ledger effect, in the caller's transaction: the debit when it
// leaves for clearing (PENDING), the settlement when it completes (the payee at this bank is credited),
// the reversal when a debited payment fails or is cancelled, the return when the receiving side sends
// it back. Both the engine and the operator endpoint change statuses through here, so the ledger always
// follows the status; every change goes through updatePaymentIfVersion with its STATUS_CHANGED entry.
import type { SqlExecutor } from '../../shared/db/types.js';
import { minorUnit } from '../domain/currencies.js';
import { PaymentError } from '../domain/errors.js';
import { convert, type RateTable } from '../domain/fees/fx.js';
import {
  debitJournal,
  returnJournal,
  reversalJournal,
  settleJournal,
  type PaymentLeg,
} from '../domain/ledger.js';
import type { PaymentStatus } from '../domain/lifecycle.js';
import { hasSchedule } from '../domain/payment-order.js';
import { electronicIban } from '../domain/rules/identifiers.js';
import { accountsOf } from '../storage/demo-accounts.js';
import {
  balanceOf,
  findCustomerAccount,
  findLedgerAccount,
  journalEntries,
  postJournal,
} from '../storage/ledger-repo.js';
import {
  paymentsOf,
  updatePaymentIfVersion,
  type StoredPayment,
} from '../storage/payments-repo.js';
import { holdsOf, openLedgerFor } from '../usecases/accounts.js';
import { ISO_STATUS_OF, REJECT_REASONS, type RejectReason } from './iso-status.js';
import { describe, instructedMinor } from './postings.js';

export type DebitPlan =
  | { readonly ok: true; readonly leg: PaymentLeg; readonly availableMinor: bigint }
  | { readonly ok: false; readonly reason: RejectReason; readonly message: string };

const reject = (reason: RejectReason, message: string): DebitPlan => ({
  ok: false,
  reason,
  message,
});

/**
 * What debiting the payment would post, and the payer account's available balance (ledger balance less
 * the holds of the owner's other accepted payments), or why it cannot be debited. The payer's ledger
 * account row is locked (PostgreSQL) so two executions from one account are checked one after the other.
 * An amount in another currency than the account's is converted with the service's rates: the amount
 * at mid plus the bank's margin (decision: debit converted at mid plus margin).
 */
export async function planDebit(
  tx: SqlExecutor,
  p: StoredPayment,
  rates: RateTable | undefined,
): Promise<DebitPlan> {
  const accounts = await accountsOf(tx, p.owner);
  const named = p.record.payerAccountReference?.paymentInstructionAccount?.accountId;
  const account =
    named === undefined ? accounts[0] : accounts.find((a) => a.accountId === electronicIban(named));
  if (!account)
    return reject('AC01', `${named ?? 'the payer account'} is not an account of ${p.owner}`);
  await openLedgerFor(tx, p.owner, account);
  const ledger = await findLedgerAccount(tx, account.accountId, { lock: true });
  if (ledger?.status !== 'OPEN') return reject('AC04', `${account.accountId} is closed`);
  const amount = instructedMinor(p);
  if (!amount) return reject('AM03', 'the payment has no amount in a known currency');
  let debitMinor = amount.minor;
  if (amount.currency !== account.currency) {
    const conversion =
      rates === undefined
        ? undefined
        : convert(
            rates,
            amount.currency,
            account.currency,
            amount.minor,
            minorUnit(amount.currency) ?? 2,
            minorUnit(account.currency) ?? 2,
          );
    if (!conversion)
      return reject('AM03', `no rate converts ${amount.currency} into ${account.currency}`);
    debitMinor = conversion.atMidMinor + conversion.marginMinor;
  }
  const payeeId = p.record.payeeAccountReference?.paymentInstructionAccount?.accountId;
  const payee = payeeId === undefined ? undefined : await findCustomerAccount(tx, payeeId);
  if (payee?.status === 'CLOSED') return reject('AC04', `the payee account ${payee.id} is closed`);
  const held = holdsOf(await paymentsOf(tx, p.owner), account, p.id).reduce(
    (a, h) => a + h.minor,
    0n,
  );
  return {
    ok: true,
    availableMinor: (await balanceOf(tx, account.accountId)) - held,
    leg: {
      paymentId: p.id,
      payerAccountId: account.accountId,
      currency: account.currency,
      amountMinor: debitMinor,
      description: describe(p),
      ...(payee && payee.currency === account.currency && payee.id !== account.accountId
        ? { payeeAccountId: payee.id }
        : {}),
    },
  };
}

/** The leg of a debited payment, read back from its DEBIT journal (and its SETTLE one, if any). */
async function postedLeg(tx: SqlExecutor, p: StoredPayment): Promise<PaymentLeg | undefined> {
  const debit = await journalEntries(tx, p.id, 'DEBIT');
  const payer = debit.find((e) => e.amountMinor < 0n);
  if (!payer) return undefined;
  const settled = (await journalEntries(tx, p.id, 'SETTLE')).find((e) => e.amountMinor > 0n);
  let payeeAccountId = settled?.accountId;
  if (!settled) {
    const payeeId = p.record.payeeAccountReference?.paymentInstructionAccount?.accountId;
    const payee = payeeId === undefined ? undefined : await findCustomerAccount(tx, payeeId);
    if (
      payee?.status === 'OPEN' &&
      payee.currency === payer.currency &&
      payee.id !== payer.accountId
    )
      payeeAccountId = payee.id;
  }
  return {
    paymentId: p.id,
    payerAccountId: payer.accountId,
    currency: payer.currency,
    amountMinor: -payer.amountMinor,
    description: describe(p),
    ...(payeeAccountId !== undefined && !payeeAccountId.startsWith('BANK:')
      ? { payeeAccountId }
      : {}),
  };
}

export interface TransitionRequest {
  readonly to: PaymentStatus;
  readonly actor: string;
  readonly at: string;
  /** Reason stored on the payment and its history entry (the ISO reason of a rejection, or the operator's). */
  readonly reason: string | null;
  readonly isoReason?: RejectReason | undefined;
  readonly description?: string | undefined;
  /** The debit to post when the payment leaves for clearing (the engine plans it; else planned here). */
  readonly debit?: PaymentLeg | undefined;
  readonly rates?: RateTable | undefined;
}

/**
 * Posts the ledger effect of `current` → `request.to` and records the change; undefined when the
 * payment's version moved meanwhile (nothing is then kept: the caller's transaction rolls back).
 */
export async function applyTransition(
  tx: SqlExecutor,
  current: StoredPayment,
  request: TransitionRequest,
): Promise<StoredPayment | undefined> {
  const { to, at } = request;
  // A standing order itself moves no money: its instances do (each a payment of its own).
  const moves = !hasSchedule(current.record);
  if (moves && (to === 'PENDING' || to === 'CONFIRMED' || to === 'COMPLETED')) {
    if ((await journalEntries(tx, current.id, 'DEBIT')).length === 0) {
      let leg = request.debit;
      if (!leg) {
        const plan = await planDebit(tx, current, request.rates);
        if (!plan.ok)
          throw new PaymentError(
            'INVALID_STATE',
            `The payment cannot be debited: ${plan.reason} ${REJECT_REASONS[plan.reason]} (${plan.message}).`,
            undefined,
            { paymentStatus: current.status },
          );
        leg = plan.leg;
      }
      await postJournal(tx, debitJournal(leg, at));
    }
  }
  const leg = moves ? await postedLeg(tx, current) : undefined;
  if (leg && to === 'COMPLETED') await postJournal(tx, settleJournal(leg, at));
  if (leg && (to === 'FAILED' || to === 'CANCELLED')) {
    const settled = (await journalEntries(tx, current.id, 'SETTLE')).length > 0;
    if (!settled) await postJournal(tx, reversalJournal(leg, at));
  }
  if (leg && to === 'RETURNED' && (await journalEntries(tx, current.id, 'SETTLE')).length > 0)
    await postJournal(tx, returnJournal(leg, at));
  const isoStatus = ISO_STATUS_OF[to];
  return updatePaymentIfVersion(tx, current, current.version, {
    status: to,
    reason: request.reason,
    at,
    history: {
      kind: 'STATUS_CHANGED',
      actor: request.actor,
      reason: request.reason,
      fromStatus: current.status,
      toStatus: to,
      ...(request.description !== undefined ? { description: request.description } : {}),
      ...(isoStatus !== undefined ? { isoStatus } : {}),
      ...(request.isoReason !== undefined ? { isoReason: request.isoReason } : {}),
    },
  });
}
