// Demo accounts (pure): each user gets one EUR account, its IBAN derived deterministically from the
// user id, opened with a fixed balance. Balances and transactions come from the double-entry ledger
// (domain/ledger.ts, usecases/accounts.ts); this is the shape the accounts API shows them in.
import { createHash } from 'node:crypto';

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

export interface LedgerEntry {
  readonly id: string;
  readonly bookingDate: string;
  readonly amountMinor: bigint;
  readonly creditDebitIndicator: 'CREDIT' | 'DEBIT';
  readonly status: 'BOOKED' | 'PENDING';
  readonly counterpartyName?: string;
  readonly remittanceInformation?: string;
}

export function fromMinor(minor: bigint): number {
  return Number(minor) / 100;
}
