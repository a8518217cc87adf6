// The one signature scheme of toolgate's outgoing webhooks (the gateway's approval announcements and the
// payment service's status notifications): `Toolgate-Timestamp` (Unix seconds) and
// `Toolgate-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`. The timestamp is signed with
// the body so a captured request cannot be replayed later than the receiver's tolerance.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'toolgate-signature';
export const TIMESTAMP_HEADER = 'toolgate-timestamp';

/** The signature header's value for `body` sent at `timestamp` (Unix seconds) under `secret`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `v1=${mac}`;
}
