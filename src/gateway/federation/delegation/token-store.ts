// The users' delegated upstream tokens in the gateway database (gateway_delegated_tokens, migration 9),
// sealed by token-cipher.ts, and the sign-ins at upstream authorization servers in flight
// (gateway_delegation_logins). SQL in the common subset of SQLite and PostgreSQL. A row that does not
// open (wrong key, copied from another user) reads as absent: the user is asked to sign in again rather
// than handed an error or someone else's token.
import { createHash } from 'node:crypto';
import type { Database } from '../../../shared/db/types.js';
import { SealedTokenError, type DelegatedTokens, type TokenCipher } from './token-cipher.js';

/** How long a sign-in at the upstream may take between the redirect and the answer. */
const LOGIN_TTL_MS = 10 * 60_000;

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A stored token set as read: the tokens and the sealed text they came from (compare-and-delete). */
export interface StoredTokens {
  readonly tokens: DelegatedTokens;
  readonly sealed: string;
}

export class DelegatedTokenStore {
  constructor(
    private readonly db: Database,
    private readonly cipher: TokenCipher,
    private readonly clock: () => number = Date.now,
  ) {}

  async get(subject: string, backend: string): Promise<StoredTokens | null> {
    const rows = await this.db.query<{ sealed: string }>(
      'SELECT sealed FROM gateway_delegated_tokens WHERE subject = $1 AND backend = $2',
      [subject, backend],
    );
    const sealed = rows[0]?.sealed;
    if (sealed === undefined) return null;
    try {
      return { tokens: this.cipher.open(subject, backend, sealed), sealed };
    } catch (error) {
      if (error instanceof SealedTokenError) return null;
      throw error;
    }
  }

  async put(subject: string, backend: string, tokens: DelegatedTokens): Promise<void> {
    await this.db.execute(
      `INSERT INTO gateway_delegated_tokens (subject, backend, sealed, expires_at, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (subject, backend) DO UPDATE SET sealed = excluded.sealed,
         expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
      [
        subject,
        backend,
        this.cipher.seal(subject, backend, tokens),
        tokens.expiresAt ?? null,
        this.clock(),
      ],
    );
  }

  /**
   * Replaces the row only if it still holds `previous` (a refresh on another replica may have replaced
   * it meanwhile, and its newer tokens win). Whether this write happened.
   */
  async replace(
    subject: string,
    backend: string,
    previous: string,
    tokens: DelegatedTokens,
  ): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE gateway_delegated_tokens SET sealed = $1, expires_at = $2, updated_at = $3
       WHERE subject = $4 AND backend = $5 AND sealed = $6`,
      [
        this.cipher.seal(subject, backend, tokens),
        tokens.expiresAt ?? null,
        this.clock(),
        subject,
        backend,
        previous,
      ],
    );
    return changed === 1;
  }

  /** Removes the row; with `onlyIf`, only while it still holds that sealed value. Whether one went. */
  async remove(subject: string, backend: string, onlyIf?: string): Promise<boolean> {
    const removed =
      onlyIf === undefined
        ? await this.db.execute(
            'DELETE FROM gateway_delegated_tokens WHERE subject = $1 AND backend = $2',
            [subject, backend],
          )
        : await this.db.execute(
            'DELETE FROM gateway_delegated_tokens WHERE subject = $1 AND backend = $2 AND sealed = $3',
            [subject, backend, onlyIf],
          );
    return removed > 0;
  }

  /** The backends a user has tokens for (the portal's connections list). */
  async backendsOf(subject: string): Promise<string[]> {
    const rows = await this.db.query<{ backend: string }>(
      'SELECT backend FROM gateway_delegated_tokens WHERE subject = $1 ORDER BY backend',
      [subject],
    );
    return rows.map((r) => r.backend);
  }
}

/** A sign-in at an upstream authorization server between the redirect there and its answer. */
export interface PendingDelegation {
  /** The portal user who started it: the only one whose tokens the answer may be stored for. */
  readonly subject: string;
  readonly backend: string;
  /** SHA-256 of the random value in the starting browser's binding cookie. */
  readonly bindingHash: string;
  readonly redirectUri: string;
  readonly nonce?: string | undefined;
  readonly codeVerifier: string;
}

interface PendingRow {
  subject: string;
  backend: string;
  binding_hash: string;
  redirect_uri: string;
  nonce: string | null;
  code_verifier: string;
  expires_at: number | string;
}

export class DelegationLoginStore {
  constructor(
    private readonly db: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async save(state: string, pending: PendingDelegation): Promise<void> {
    const now = this.clock();
    await this.db.execute('DELETE FROM gateway_delegation_logins WHERE expires_at <= $1', [now]);
    await this.db.execute(
      `INSERT INTO gateway_delegation_logins
         (state_hash, subject, backend, binding_hash, redirect_uri, nonce, code_verifier, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        sha256(state),
        pending.subject,
        pending.backend,
        pending.bindingHash,
        pending.redirectUri,
        pending.nonce ?? null,
        pending.codeVerifier,
        now + LOGIN_TTL_MS,
      ],
    );
  }

  /** The pending sign-in for a state, left in place; null when unknown or expired. */
  async peek(state: string): Promise<PendingDelegation | null> {
    const rows = await this.db.query<PendingRow>(
      `SELECT subject, backend, binding_hash, redirect_uri, nonce, code_verifier, expires_at
       FROM gateway_delegation_logins WHERE state_hash = $1`,
      [sha256(state)],
    );
    const row = rows[0];
    return row === undefined || Number(row.expires_at) <= this.clock() ? null : pendingOf(row);
  }

  /** The pending sign-in for a state, removed as it is taken (usable once); null when unknown or expired. */
  async take(state: string): Promise<PendingDelegation | null> {
    const hash = sha256(state);
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<PendingRow>(
        `SELECT subject, backend, binding_hash, redirect_uri, nonce, code_verifier, expires_at
         FROM gateway_delegation_logins WHERE state_hash = $1`,
        [hash],
      );
      const removed = await tx.execute(
        'DELETE FROM gateway_delegation_logins WHERE state_hash = $1',
        [hash],
      );
      const row = rows[0];
      if (row === undefined || removed !== 1 || Number(row.expires_at) <= this.clock()) return null;
      return pendingOf(row);
    });
  }
}

function pendingOf(row: PendingRow): PendingDelegation {
  return {
    subject: row.subject,
    backend: row.backend,
    bindingHash: row.binding_hash,
    redirectUri: row.redirect_uri,
    ...(row.nonce === null ? {} : { nonce: row.nonce }),
    codeVerifier: row.code_verifier,
  };
}
