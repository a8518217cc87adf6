// Constant-time string comparison: both sides are hashed to 32 bytes first, so neither the content
// nor the length of the secret leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}
