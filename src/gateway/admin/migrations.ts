// Tables of the admin plane (component "admin" in the gateway database; docs/storage-schema.md):
// applications, access requests, the key rotation policy, the bootstrap admin token's hash and the
// append-only, hash-chained audit log. Version 2: owners are issuer + subject.
import type { Migration } from '../../shared/db/migrations.js';

const TABLES = `
CREATE TABLE admin_applications (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  owner_subject TEXT NOT NULL,
  owner_name TEXT NOT NULL,
  owner_email TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX admin_applications_owner ON admin_applications (owner_subject);
CREATE TABLE admin_access_requests (
  id TEXT PRIMARY KEY,
  application_id TEXT NOT NULL REFERENCES admin_applications (id),
  requester_subject TEXT NOT NULL,
  owner_name TEXT NOT NULL,
  owner_email TEXT NOT NULL,
  tools TEXT,
  environments TEXT NOT NULL,
  justification TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  approved_tools TEXT,
  rate_limit_per_minute INTEGER,
  decision_note TEXT,
  decided_by TEXT,
  decided_at TEXT,
  subscription_ids TEXT,
  keys_collected_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX admin_access_requests_status ON admin_access_requests (status, created_at);
CREATE INDEX admin_access_requests_requester ON admin_access_requests (requester_subject, created_at);
CREATE TABLE admin_key_policy (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  rotation_days INTEGER NOT NULL,
  warn_days INTEGER NOT NULL,
  enforce_development INTEGER NOT NULL,
  enforce_staging INTEGER NOT NULL,
  enforce_production INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL
);
CREATE TABLE admin_bootstrap_token (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  token_hash TEXT NOT NULL,
  last4 TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE admin_audit_log (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor_role TEXT NOT NULL,
  actor_subject TEXT NOT NULL,
  actor_via TEXT NOT NULL,
  actor_name TEXT,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  before_json TEXT,
  after_json TEXT,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX admin_audit_log_at ON admin_audit_log (at);
CREATE INDEX admin_audit_log_actor ON admin_audit_log (actor_subject, seq);
CREATE INDEX admin_audit_log_target ON admin_audit_log (target_type, target_id, seq);
`;

export const adminMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'applications, access requests, key policy, bootstrap token, audit log',
    up: {
      sqlite: `${TABLES}
CREATE TRIGGER admin_audit_log_no_update BEFORE UPDATE ON admin_audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER admin_audit_log_no_delete BEFORE DELETE ON admin_audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;`,
      postgres: `${TABLES}
CREATE FUNCTION admin_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
CREATE TRIGGER admin_audit_log_no_change BEFORE UPDATE OR DELETE ON admin_audit_log
FOR EACH ROW EXECUTE FUNCTION admin_audit_log_append_only();
CREATE TRIGGER admin_audit_log_no_truncate BEFORE TRUNCATE ON admin_audit_log
FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_log_append_only();`,
    },
  },
  {
    version: 2,
    name: 'owners of applications and access requests are issuer + subject',
    // Rows from before: toolgate's own actors (bootstrap admin, command line, system) get the issuer ""
    // no token has; a user's keep NULL — recorded before issuers were, matched by subject alone.
    up: `ALTER TABLE admin_applications ADD COLUMN owner_issuer TEXT;
ALTER TABLE admin_access_requests ADD COLUMN requester_issuer TEXT;
UPDATE admin_applications SET owner_issuer = ''
  WHERE owner_subject IN ('bootstrap-admin', 'system') OR owner_subject LIKE 'cli:%';
UPDATE admin_access_requests SET requester_issuer = ''
  WHERE requester_subject IN ('bootstrap-admin', 'system') OR requester_subject LIKE 'cli:%';`,
  },
  {
    version: 3,
    name: 'access requests may ask for tool bundles',
    // A JSON array of bundle names (gateway.bundles); NULL: not limited. Approval limits the provisioned
    // subscriptions to them (issue 28).
    up: `ALTER TABLE admin_access_requests ADD COLUMN bundles TEXT;`,
  },
];
