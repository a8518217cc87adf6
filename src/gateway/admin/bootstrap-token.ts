// The bootstrap admin token: how the first administrator signs in before any identity provider is set
// up. Only its SHA-256 is stored (one row in the gateway database, so every admin replica sees a rotation
// within seconds); the plaintext is shown once, or kept in the demo secrets file in development. A token
// set in configuration (admin.bootstrapToken) takes precedence and cannot be rotated from here.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../shared/db/types.js';

export const ADMIN_TOKEN_PREFIX = 'tga_';

export function generateAdminToken(): string {
  return `${ADMIN_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export class BootstrapTokens {
  private cached: { hash: Buffer | null; readAt: number } | undefined;

  constructor(
    private readonly db: Database,
    /** admin.bootstrapToken, when configured. */
    private readonly configured: string | undefined,
    private readonly refreshMs = 5_000,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  get isConfigured(): boolean {
    return this.configured !== undefined;
  }

  /** Whether `token` is the bootstrap token (constant time over the hashes). */
  async verify(token: string): Promise<boolean> {
    const expected = await this.currentHash();
    if (expected === null) return false;
    return timingSafeEqual(sha256(token), expected);
  }

  /** Whether a stored token exists (a configured one counts). */
  async exists(): Promise<boolean> {
    return (await this.currentHash()) !== null;
  }

  /** Replaces the stored token with a new one and returns it (the only time it is shown). */
  async rotate(): Promise<{ token: string; createdAt: string }> {
    if (this.configured !== undefined)
      throw new Error(
        'the bootstrap admin token is set in configuration (admin.bootstrapToken); change it there',
      );
    const token = generateAdminToken();
    const createdAt = this.clock().toISOString();
    const hash = sha256(token).toString('hex');
    await this.db.transaction(async (tx) => {
      await tx.execute('DELETE FROM admin_bootstrap_token WHERE id = 1');
      await tx.execute(
        'INSERT INTO admin_bootstrap_token (id, token_hash, last4, created_at) VALUES (1, $1, $2, $3)',
        [hash, token.slice(-4), createdAt],
      );
    });
    this.cached = undefined;
    return { token, createdAt };
  }

  private async currentHash(): Promise<Buffer | null> {
    if (this.configured !== undefined) return sha256(this.configured);
    const now = Date.now();
    if (this.cached && now - this.cached.readAt < this.refreshMs) return this.cached.hash;
    const [row] = await this.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM admin_bootstrap_token WHERE id = 1',
    );
    const hash = row ? Buffer.from(row.token_hash, 'hex') : null;
    this.cached = { hash, readAt: now };
    return hash;
  }
}
