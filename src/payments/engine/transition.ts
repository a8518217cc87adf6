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
  type Journal,
  type JournalKind,
  type PaymentLeg,
  type Posting,
} from '../domain/ledger.js';
import type { PaymentStatus } from '../domain/lifecycle.js';
import { hasSchedule } from '../domain/payment-order.js';
import { electronicIban } from '../domain/rules/identifiers.js';
import { accountsOf } from '../storage/demo-accounts.js';
import {
  balanceOf,
  findCustomerAccount,
  findLedgerAccount,
  paymentEntries,
  postJournal,
} from '../storage/ledger-repo.js';
import {
  listPayments,
  updatePaymentIfVersion,
  type StoredPayment,
} from '../storage/payments-repo.js';
import { holdsOf, openLedgerFor } from '../usecases/accounts.js';
import { isoStatusOf } from '../domain/iso-status.js';
import { REJECT_REASONS, type RejectReason } from './iso-status.js';
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
 * at mid plus the bank's margin (decision: Funds checked at execution in the account's currency,
 * converted at mid plus margin).
 */
export async function planDebit(
  tx: SqlExecutor,
  p: StoredPayment,
  rates: RateTable | undefined,
): Promise<DebitPlan> {
  const named = p.record.payerAccountReference?.paymentInstructionAccount?.accountId;
  const payer = named === undefined ? undefined : electronicIban(named);
  let ledger = payer === undefined ? undefined : await findLedgerAccount(tx, payer, { lock: true });
  if (ledger?.kind !== 'CUSTOMER' || ledger.owner !== p.owner) {
    // Not in the ledger yet (or not the owner's): the owner's demo accounts, opened in the ledger now.
    const accounts = await accountsOf(tx, p.owner);
    const demo = payer === undefined ? accounts[0] : accounts.find((a) => a.accountId === payer);
    if (!demo)
      return reject('AC01', `${named ?? 'the payer account'} is not an account of ${p.owner}`);
    await openLedgerFor(tx, p.owner, demo);
    ledger = await findLedgerAccount(tx, demo.accountId, { lock: true });
  }
  if (ledger?.status !== 'OPEN') return reject('AC04', `${ledger?.id ?? named ?? ''} is closed`);
  const account = { accountId: ledger.id, currency: ledger.currency };
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
  const initiated = await listPayments(tx, { owner: p.owner, status: 'INITIATED', limit: 1000 });
  const held = holdsOf(initiated, account, p.id).reduce((a, h) => a + h.minor, 0n);
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
async function postedLeg(
  tx: SqlExecutor,
  p: StoredPayment,
  posted: PostedJournals,
): Promise<PaymentLeg | undefined> {
  const payer = posted.get('DEBIT')?.find((e) => e.amountMinor < 0n);
  if (!payer) return undefined;
  const settled = posted.get('SETTLE')?.find((e) => e.amountMinor > 0n);
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
  /**
   * The payment's leg when the caller knows it: the debit the engine planned, or the one it posted
   * earlier in this transaction. Else planned here (debit) or read back from the journals.
   */
  readonly leg?: PaymentLeg | undefined;
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
  await postLedgerEffect(tx, current, request);
  return record(tx, current, request);
}

/**
 * The journals `current` → `request.to` posts: the debit on the way to clearing, the settlement, the
 * reversal of a debited payment that fails or is cancelled, the return. Nothing for a standing order
 * itself (its instances move the money, each a payment of its own) or for a step already posted.
 */
export async function postLedgerEffect(
  tx: SqlExecutor,
  current: StoredPayment,
  request: Pick<TransitionRequest, 'to' | 'at' | 'leg' | 'rates'>,
): Promise<void> {
  const { to, at } = request;
  if (hasSchedule(current.record)) return;
  const posted = await postedJournals(tx, current.id);
  const post = async (journal: Journal) => {
    await postJournal(tx, journal);
    posted.set(journal.kind, journal.postings);
  };
  let leg = request.leg;
  if ((to === 'PENDING' || to === 'CONFIRMED' || to === 'COMPLETED') && !posted.has('DEBIT')) {
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
    await post(debitJournal(leg, at));
  }
  leg ??= await postedLeg(tx, current, posted);
  if (leg && to === 'COMPLETED' && !posted.has('SETTLE')) await post(settleJournal(leg, at));
  if (leg && (to === 'FAILED' || to === 'CANCELLED') && !posted.has('SETTLE'))
    await post(reversalJournal(leg, at));
  if (leg && to === 'RETURNED' && posted.has('SETTLE')) await post(returnJournal(leg, at));
}

/** The payment's journals posted so far, by kind, with their entries. */
type PostedJournals = Map<JournalKind, readonly Posting[]>;

async function postedJournals(tx: SqlExecutor, paymentId: string): Promise<PostedJournals> {
  const out: PostedJournals = new Map();
  for (const e of await paymentEntries(tx, paymentId)) {
    out.set(e.kind, [...(out.get(e.kind) ?? []), e]);
  }
  return out;
}

/** The status change and its STATUS_CHANGED history entry (with its ISO 20022 codes). */
function record(
  tx: SqlExecutor,
  current: StoredPayment,
  request: TransitionRequest,
): Promise<StoredPayment | undefined> {
  const { to, at } = request;
  const isoStatus = isoStatusOf(to);
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
      isoStatus,
      ...(request.isoReason !== undefined ? { isoReason: request.isoReason } : {}),
    },
  });
}
