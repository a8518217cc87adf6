// Server-side portal sessions. The browser holds a random id (256 bits) in an HttpOnly cookie; the
// database holds only its SHA-256, the actor and three times. A session ends when idle longer than
// `idleMs`, at `absoluteMs` after sign-in whatever the activity, or at sign-out.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../../shared/db/types.js';
import type { Actor } from '../admin/actor.js';

export interface SessionPolicy {
  readonly idleMs: number;
  readonly absoluteMs: number;
}

export interface PortalSession {
  readonly actor: Actor & { readonly role: 'admin' | 'developer' };
  /** The synchronizer token every form of this session carries. */
  readonly csrfToken: string;
  readonly expiresAt: number;
}

interface SessionRow {
  subject: string;
  issuer: string | null;
  role: 'admin' | 'developer';
  via: string;
  name: string | null;
  roles: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The session's CSRF token: derived from the secret id, so it needs no storage and dies with it. */
export function csrfTokenOf(sessionId: string): string {
  return createHash('sha256')
    .update('toolgate-portal-csrf\0')
    .update(sessionId)
    .digest('base64url');
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function csrfMatches(session: PortalSession, submitted: unknown): boolean {
  if (typeof submitted !== 'string') return false;
  const a = Buffer.from(session.csrfToken);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class SessionStore {
  constructor(
    private readonly db: Database,
    private readonly policy: SessionPolicy,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Starts a session for the actor; returns the id for the cookie (never stored). */
  async create(actor: PortalSession['actor']): Promise<{ id: string; session: PortalSession }> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    const expiresAt = now + this.policy.absoluteMs;
    await this.db.execute(
      `INSERT INTO portal_sessions (id_hash, subject, issuer, role, via, name, created_at, last_seen_at, expires_at, roles)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        sha256(id),
        actor.subject,
        actor.issuer ?? null,
        actor.role,
        actor.via,
        actor.name ?? null,
        now,
        now,
        expiresAt,
        actor.roles === undefined ? null : JSON.stringify(actor.roles),
      ],
    );
    // Expired rows of everyone are swept now and then, on sign-in rather than on every request.
    await this.db.execute('DELETE FROM portal_sessions WHERE expires_at <= $1', [now]);
    return { id, session: { actor, csrfToken: csrfTokenOf(id), expiresAt } };
  }

  /** The live session for a cookie value, touching its idle timer; null when unknown or expired. */
  async find(id: string | undefined): Promise<PortalSession | null> {
    if (id === undefined || id.length < 16 || id.length > 128) return null;
    const hash = sha256(id);
    const rows = await this.db.query<SessionRow>(
      'SELECT subject, issuer, role, via, name, roles, created_at, last_seen_at, expires_at FROM portal_sessions WHERE id_hash = $1',
      [hash],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const now = this.clock();
    if (now >= Number(row.expires_at) || now - Number(row.last_seen_at) >= this.policy.idleMs) {
      await this.db.execute('DELETE FROM portal_sessions WHERE id_hash = $1', [hash]);
      return null;
    }
    await this.db.execute('UPDATE portal_sessions SET last_seen_at = $1 WHERE id_hash = $2', [
      now,
      hash,
    ]);
    const actor = {
      role: row.role,
      subject: row.subject,
      ...(row.issuer === null ? {} : { issuer: row.issuer }),
      via: row.via as Actor['via'],
      ...(row.name === null ? {} : { name: row.name }),
      ...(row.roles === null ? {} : { roles: JSON.parse(row.roles) as string[] }),
    };
    return { actor, csrfToken: csrfTokenOf(id), expiresAt: Number(row.expires_at) };
  }

  async destroy(id: string | undefined): Promise<void> {
    if (id === undefined) return;
    await this.db.execute('DELETE FROM portal_sessions WHERE id_hash = $1', [sha256(id)]);
  }
}
