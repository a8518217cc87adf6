// Opaque pagination cursors: base64url of the position of the last item returned ((createdAt, id) for
// payments, the payment version for history entries).
import { PaymentError } from '../domain/errors.js';

export function encodeCursor(p: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([p.createdAt, p.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  throw invalidCursor();
}

/** History pages: the version of the last entry returned (the next page holds older versions). */
export function encodeHistoryCursor(version: number): string {
  return Buffer.from(JSON.stringify(['h', version]), 'utf8').toString('base64url');
}

export function decodeHistoryCursor(cursor: string): number {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value[0] === 'h' &&
      Number.isSafeInteger(value[1]) &&
      (value[1] as number) > 0
    )
      return value[1] as number;
  } catch {
    // fall through
  }
  throw invalidCursor();
}

function invalidCursor(): PaymentError {
  return new PaymentError('VALIDATION_FAILED', 'The cursor is not one this service issued.', [
    { pointer: '/query/cursor', code: 'INVALID_CURSOR', message: 'not a cursor from nextCursor' },
  ]);
}
