// Subscription key format: `tgk_` + 24 base62 characters of CSPRNG output (≈142.9 bits) + 6 base62
// characters of CRC32 over the preceding text. The checksum lets secret scanners and the gateway
// reject typos and garbage offline, before any store lookup. Total length: 34.
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export { SUBSCRIPTION_KEY_PREFIX as KEY_PREFIX } from '../../../shared/log/mask.js';
import { SUBSCRIPTION_KEY_PREFIX as KEY_PREFIX } from '../../../shared/log/mask.js';
export const RANDOM_LENGTH = 24;
export const CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/** Uniform base62 characters by rejection sampling (bytes ≥ 248 are discarded, so no modulo bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function base62Fixed(value: number, length: number): string {
  let n = value;
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function keyChecksum(body: string): string {
  return base62Fixed(crc32(body) >>> 0, CHECKSUM_LENGTH);
}

export function generateSubscriptionKey(): string {
  const body = KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + keyChecksum(body);
}

/** Prefix, length, charset and checksum — cheap, constant-size checks before any lookup. */
export function isWellFormedKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length !== KEY_LENGTH || !KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, KEY_LENGTH - CHECKSUM_LENGTH);
  return keyChecksum(body) === key.slice(KEY_LENGTH - CHECKSUM_LENGTH);
}
