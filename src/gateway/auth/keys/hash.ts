// Subscription keys are stored as hashes only. They carry ≥128 bits of CSPRNG entropy, so a fast hash
// is already infeasible to invert or brute-force; a slow password KDF (scrypt/argon2) would only add
// latency to every request. An optional server-side pepper turns the hash into HMAC-SHA-256, so a
// leaked database alone does not even allow confirming a candidate key.
import { createHash, createHmac } from 'node:crypto';

export function hashSubscriptionKey(key: string, pepper?: string | Uint8Array): string {
  if (pepper === undefined || pepper.length === 0)
    return createHash('sha256').update(key, 'utf8').digest('hex');
  return createHmac('sha256', pepper).update(key, 'utf8').digest('hex');
}
