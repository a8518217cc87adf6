// W3C Trace Context: continue the caller's trace with a new span of our own, or start one. Random ids come
// from a refilled pool of random bytes (one crypto call per 256 ids instead of one per request).
import { randomFillSync } from 'node:crypto';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const POOL = Buffer.alloc(4096);
let offset = POOL.length;

function randomHex(bytes: number): string {
  if (offset + bytes > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const hex = POOL.toString('hex', offset, offset + bytes);
  offset += bytes;
  return /^0+$/.test(hex) ? randomHex(bytes) : hex;
}

/** The traceparent to send upstream: same trace id and flags as the caller's, new parent id. */
export function nextTraceparent(incoming: string | undefined): string {
  const match = incoming === undefined ? null : TRACEPARENT.exec(incoming.trim().toLowerCase());
  const span = randomHex(8);
  if (match && !/^0+$/.test(match[1] ?? '0') && !/^0+$/.test(match[2] ?? '0'))
    return `00-${match[1]}-${span}-${match[3]}`;
  return `00-${randomHex(16)}-${span}-01`;
}
