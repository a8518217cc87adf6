// The `requestState` of a 2026-07-28 `input_required` answer to a call that needs consent: a stateless,
// HMAC-SHA-256-signed, expiring token any replica can verify, binding the approval to exactly this call
// {approval id, subscription, user, tool, arguments hash, policy version}. No server session is kept; an
// altered or foreign token fails the signature, an old one its expiry (decision: requestState is a signed
// token, not a session).
//
// Wire form: `tg1.<base64url(JSON payload)>.<base64url(HMAC-SHA-256(key, "tg1." + payload part))>`.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ConsentBinding } from './contracts.js';

const PREFIX = 'tg1.';
/** Longest token accepted (the payload is a few hundred bytes): a bound on work for hostile input. */
const MAX_TOKEN_LENGTH = 2048;

export interface RequestStatePayload {
  readonly approvalId: string;
  readonly callId: string;
  readonly binding: ConsentBinding;
  /** Epoch milliseconds after which the token is refused. */
  readonly expiresAt: number;
}

export type StateCheck =
  | { readonly ok: true; readonly state: RequestStatePayload }
  | { readonly ok: false; readonly reason: 'malformed' | 'signature' | 'expired' };

export class RequestStateSigner {
  private constructor(private readonly key: Buffer) {}

  /**
   * The key from `gateway.mcp.requestStateSecret` when set; otherwise derived (HKDF) from the subscription
   * key pepper, which every replica shares; otherwise a random key of this process (one replica only: a
   * retry reaching another replica is refused as altered).
   */
  static fromSecrets(secret: string | undefined, pepper: string | undefined): RequestStateSigner {
    if (secret !== undefined) return new RequestStateSigner(derive(secret));
    if (pepper !== undefined) return new RequestStateSigner(derive(pepper));
    return new RequestStateSigner(randomBytes(32));
  }

  static shared(secret: string | undefined, pepper: string | undefined): boolean {
    return secret !== undefined || pepper !== undefined;
  }

  sign(payload: RequestStatePayload): string {
    const body = Buffer.from(
      JSON.stringify({
        a: payload.approvalId,
        c: payload.callId,
        s: payload.binding.subscription,
        u: payload.binding.subject,
        t: payload.binding.tool,
        h: payload.binding.argumentsHash,
        p: payload.binding.policyVersion,
        e: payload.expiresAt,
      }),
    ).toString('base64url');
    return `${PREFIX}${body}.${this.mac(body)}`;
  }

  verify(token: unknown, now: number): StateCheck {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !token.startsWith(PREFIX))
      return { ok: false, reason: 'malformed' };
    const parts = token.slice(PREFIX.length).split('.');
    const [body, mac] = parts;
    if (parts.length !== 2 || body === undefined || mac === undefined)
      return { ok: false, reason: 'malformed' };
    const expected = Buffer.from(this.mac(body), 'base64url');
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { ok: false, reason: 'signature' };
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    const { a, c, s, u, t, h, p, e } = raw;
    if (
      typeof a !== 'string' ||
      typeof c !== 'string' ||
      typeof s !== 'string' ||
      (typeof u !== 'string' && u !== null) ||
      typeof t !== 'string' ||
      typeof h !== 'string' ||
      typeof p !== 'number' ||
      typeof e !== 'number'
    )
      return { ok: false, reason: 'malformed' };
    if (now > e) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      state: {
        approvalId: a,
        callId: c,
        binding: { subscription: s, subject: u, tool: t, argumentsHash: h, policyVersion: p },
        expiresAt: e,
      },
    };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(PREFIX).update(body).digest('base64url');
  }
}

function derive(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'toolgate', 'toolgate mcp requestState v1', 32));
}
