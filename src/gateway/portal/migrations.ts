// Tables of the portal (component "portal" in the gateway database): sign-in sessions and OpenID
// Connect sign-ins in flight, both keyed by a hash so a copy of the database opens no session.
import type { Migration } from '../../shared/db/migrations.js';

export const portalMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'portal sessions and pending OpenID Connect sign-ins',
    up: `
CREATE TABLE portal_sessions (
  id_hash TEXT PRIMARY KEY,
  subject TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'developer')),
  via TEXT NOT NULL,
  name TEXT,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX portal_sessions_expires ON portal_sessions (expires_at);
CREATE TABLE portal_oidc_logins (
  state_hash TEXT PRIMARY KEY,
  nonce TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);`,
  },
  {
    version: 2,
    name: 'portal sessions know the issuer of their user',
    // Sessions from before cannot say whose issuer they were opened with: they end (sign in again).
    up: `DELETE FROM portal_sessions;
ALTER TABLE portal_sessions ADD COLUMN issuer TEXT;`,
  },
  {
    version: 3,
    name: 'portal sessions keep the roles of their user',
    // JSON array of the role claim's values at sign-in (approvers of governed actions are told by them);
    // NULL for sessions from before: no roles until the user signs in again.
    up: 'ALTER TABLE portal_sessions ADD COLUMN roles TEXT;',
  },
];
