// OpenID Connect sign-ins between the redirect to the provider and its answer: nonce and PKCE verifier
// under the hash of the state, usable once, for ten minutes. In the database, so the answer may reach
// any replica of the admin listener.
import type { Database } from '../../shared/db/types.js';
import { sha256 } from './session-store.js';

const TTL_MS = 10 * 60_000;

export class OidcLoginStore {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number,
  ) {}

  async save(login: { state: string; nonce: string; codeVerifier: string }): Promise<void> {
    const now = this.clock();
    await this.db.execute('DELETE FROM portal_oidc_logins WHERE expires_at <= $1', [now]);
    await this.db.execute(
      'INSERT INTO portal_oidc_logins (state_hash, nonce, code_verifier, expires_at) VALUES ($1, $2, $3, $4)',
      [sha256(login.state), login.nonce, login.codeVerifier, now + TTL_MS],
    );
  }

  /** The pending sign-in for a state, removed as it is taken; null when unknown or expired. */
  async take(state: string): Promise<{ nonce: string; codeVerifier: string } | null> {
    const hash = sha256(state);
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ nonce: string; code_verifier: string; expires_at: number }>(
        'SELECT nonce, code_verifier, expires_at FROM portal_oidc_logins WHERE state_hash = $1',
        [hash],
      );
      const removed = await tx.execute('DELETE FROM portal_oidc_logins WHERE state_hash = $1', [
        hash,
      ]);
      const row = rows[0];
      if (row === undefined || removed !== 1 || Number(row.expires_at) <= this.clock()) return null;
      return { nonce: row.nonce, codeVerifier: row.code_verifier };
    });
  }
}
