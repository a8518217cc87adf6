// Demo accounts (pure): each user gets one EUR account, its IBAN derived deterministically from the
// user id, opened with a fixed balance. Balances and transactions derive from the user's own payments:
// COMPLETED outgoing EUR payments are booked debits; INITIATED/PENDING/CONFIRMED ones are pending.
import { createHash } from 'node:crypto';
import type { PaymentStatus } from './lifecycle.js';

export const DEMO_CURRENCY = 'EUR';
export const DEMO_OPENING_BALANCE = '5000.00';
const BANK_CODE = '37040044';

/** A valid German IBAN for the user (check digits computed with ISO 7064 mod 97-10). */
export function demoIbanFor(userId: string): string {
  const hash = createHash('sha256').update(`toolgate-demo:${userId}`).digest();
  const account = (hash.readBigUInt64BE(0) % 10_000_000_000n).toString().padStart(10, '0');
  const bban = `${BANK_CODE}${account}`;
  const numeric = `${bban}131400`; // D=13 E=14, then "00"
  const check = 98n - (BigInt(numeric) % 97n);
  return `DE${check.toString().padStart(2, '0')}${bban}`;
}

export interface LedgerPayment {
  readonly id: string;
  readonly status: PaymentStatus;
  readonly amount: string | null;
  readonly currency: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly counterparty?: string | undefined;
  readonly remittance?: string | undefined;
}

export interface LedgerEntry {
  readonly id: string;
  readonly bookingDate: string;
  readonly amountMinor: bigint;
  readonly creditDebitIndicator: 'CREDIT' | 'DEBIT';
  readonly status: 'BOOKED' | 'PENDING';
  readonly counterpartyName?: string;
  readonly remittanceInformation?: string;
}

const PENDING_STATUSES: ReadonlySet<PaymentStatus> = new Set(['INITIATED', 'PENDING', 'CONFIRMED']);

export function toMinor(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt((fraction + '00').slice(0, 2));
}

export function fromMinor(minor: bigint): number {
  return Number(minor) / 100;
}

/** Ledger of the demo account, newest first. */
export function ledger(
  opening: { amount: string; at: string },
  payments: readonly LedgerPayment[],
): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const p of payments) {
    if (p.currency !== DEMO_CURRENCY || p.amount === null) continue;
    const booked = p.status === 'COMPLETED';
    if (!booked && !PENDING_STATUSES.has(p.status)) continue;
    entries.push({
      id: p.id,
      bookingDate: (booked ? p.updatedAt : p.createdAt).slice(0, 10),
      amountMinor: toMinor(p.amount),
      creditDebitIndicator: 'DEBIT',
      status: booked ? 'BOOKED' : 'PENDING',
      ...(p.counterparty ? { counterpartyName: p.counterparty } : {}),
      ...(p.remittance ? { remittanceInformation: p.remittance } : {}),
    });
  }
  entries.push({
    id: 'opening-balance',
    bookingDate: opening.at.slice(0, 10),
    amountMinor: toMinor(opening.amount),
    creditDebitIndicator: 'CREDIT',
    status: 'BOOKED',
    remittanceInformation: 'Opening balance',
  });
  return entries;
}

export function balances(entries: readonly LedgerEntry[]): { booked: bigint; available: bigint } {
  let booked = 0n;
  let pending = 0n;
  for (const e of entries) {
    const signed = e.creditDebitIndicator === 'CREDIT' ? e.amountMinor : -e.amountMinor;
    if (e.status === 'BOOKED') booked += signed;
    else pending += signed;
  }
  return { booked, available: booked + pending };
}
