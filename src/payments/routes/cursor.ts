// Opaque pagination cursors: base64url of the position (createdAt, id) of the last item returned.
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
  throw new PaymentError('VALIDATION_FAILED', 'The cursor is not one this service issued.', [
    { pointer: '/query/cursor', code: 'INVALID_CURSOR', message: 'not a cursor from nextCursor' },
  ]);
}
