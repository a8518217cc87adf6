// The users' delegated upstream tokens, sealed at rest (identity mode delegation, issue 28). One key per
// purpose is derived from gateway.federation.tokenKey by HKDF-SHA256 (RFC 5869), so the configured secret
// itself never encrypts anything and a second use of it (the elicitation ids below) cannot be turned into
// the first. Each row is AES-256-GCM with a fresh random 96-bit nonce per write and the row's owner —
// subject and backend — as associated data: a sealed value copied into another user's row (or another
// backend's) fails authentication instead of handing that user someone else's token. Pure: no I/O.
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  type KeyObject,
  createSecretKey,
} from 'node:crypto';

/** Fixed HKDF salt: the key is already high-entropy (≥ 32 characters), the salt only separates products. */
const SALT = 'toolgate federation';
const SEAL_INFO = 'toolgate federation: delegated upstream tokens at rest, AES-256-GCM, v1';
const ELICITATION_INFO = 'toolgate federation: delegation elicitation ids, HMAC-SHA256, v1';
/** The sealed format's version: a later key rotation or algorithm change adds v2 beside it. */
const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** What a row holds for one user at one upstream authorization server. */
export interface DelegatedTokens {
  readonly accessToken: string;
  readonly refreshToken?: string | undefined;
  /** Milliseconds since the epoch; absent when the server gave no `expires_in`. */
  readonly expiresAt?: number | undefined;
  /** The scopes granted (the token response's `scope`, else those asked for). */
  readonly scopes: readonly string[];
  readonly tokenType: string;
  /**
   * The issuer of the portal sign-in that connected the account (the portal session's user): a call
   * whose user token comes from another issuer is not given these tokens (provider.ts).
   */
  readonly issuer?: string | undefined;
}

/** A sealed value did not open: wrong key, wrong owner (a copied row) or altered bytes. */
export class SealedTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedTokenError';
  }
}

function derive(tokenKey: string, info: string): KeyObject {
  return createSecretKey(
    Buffer.from(hkdfSync('sha256', Buffer.from(tokenKey, 'utf8'), SALT, info, 32)),
  );
}

/** The associated data: subject and backend, unambiguously (JSON, so no separator can be forged). */
function ownerOf(subject: string, backend: string): Buffer {
  return Buffer.from(JSON.stringify(['delegated-token', subject, backend]), 'utf8');
}

export class TokenCipher {
  private readonly sealKey: KeyObject;
  private readonly elicitationKey: KeyObject;

  constructor(tokenKey: string) {
    if (tokenKey.length < 32)
      throw new Error('gateway.federation.tokenKey: must be at least 32 characters');
    this.sealKey = derive(tokenKey, SEAL_INFO);
    this.elicitationKey = derive(tokenKey, ELICITATION_INFO);
  }

  /** `v1.<nonce>.<ciphertext+tag>` (base64url), for the owner (subject, backend) only. */
  seal(subject: string, backend: string, tokens: DelegatedTokens): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(ownerOf(subject, backend));
    const body = Buffer.concat([
      cipher.update(JSON.stringify(tokens), 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    return `${VERSION}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  open(subject: string, backend: string, sealed: string): DelegatedTokens {
    const [version, nonceText, bodyText, extra] = sealed.split('.');
    if (
      version !== VERSION ||
      nonceText === undefined ||
      bodyText === undefined ||
      extra !== undefined
    )
      throw new SealedTokenError('not a sealed token of a known version');
    const nonce = Buffer.from(nonceText, 'base64url');
    const body = Buffer.from(bodyText, 'base64url');
    if (nonce.length !== NONCE_BYTES || body.length <= TAG_BYTES)
      throw new SealedTokenError('sealed token is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, nonce, {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(ownerOf(subject, backend));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    let plain: string;
    try {
      plain = Buffer.concat([
        decipher.update(body.subarray(0, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SealedTokenError(
        'sealed token does not open for this user and backend (wrong key, copied or altered row)',
      );
    }
    return parseTokens(plain);
  }

  /**
   * The URL-mode elicitation id for a user's sign-in at a backend: stable (a client can tell a repeated
   * request for the same sign-in), and opaque (it does not reveal the subject to whoever sees it).
   */
  elicitationId(subject: string, backend: string): string {
    const mac = createHmac('sha256', this.elicitationKey)
      .update(ownerOf(subject, backend))
      .digest('base64url');
    return `fed_${mac.slice(0, 32)}`;
  }
}

function parseTokens(plain: string): DelegatedTokens {
  const value = JSON.parse(plain) as Partial<DelegatedTokens>;
  if (typeof value.accessToken !== 'string' || typeof value.tokenType !== 'string')
    throw new SealedTokenError('sealed token has no access token');
  return {
    accessToken: value.accessToken,
    tokenType: value.tokenType,
    scopes: Array.isArray(value.scopes) ? value.scopes.filter((s) => typeof s === 'string') : [],
    ...(typeof value.refreshToken === 'string' ? { refreshToken: value.refreshToken } : {}),
    ...(typeof value.expiresAt === 'number' ? { expiresAt: value.expiresAt } : {}),
    ...(typeof value.issuer === 'string' ? { issuer: value.issuer } : {}),
  };
}
