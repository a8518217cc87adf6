// Identifiers the service assigns.
import { randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Payment transaction id: PO-YYYYMMDD-<12 random Crockford base32 chars> (24 characters). */
export function newPaymentId(now: Date): string {
  const bytes = randomBytes(12);
  let suffix = '';
  for (const b of bytes) suffix += ALPHABET[b % 32];
  return `PO-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${suffix}`;
}

export function newUetr(): string {
  return randomUUID();
}
