// Tables of consent (component "consent" in the gateway database; docs/storage-schema.md): one row per
// approval a governed call asked for, its binding, what the approver is shown, and its single-use receipt.
import type { Migration } from '../../../shared/db/migrations.js';

export const consentMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'approvals and their single-use receipts',
    // Times are ISO-8601 UTC strings of one fixed length (Date#toISOString), so they compare as text.
    // `subject` is '' for an anonymous caller (no token subject is empty), so the binding compares with =.
    up: `
CREATE TABLE consent_approvals (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('confirm', 'approve')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'used')),
  subscription TEXT NOT NULL,
  subject TEXT NOT NULL,
  initiator_issuer TEXT,
  tool TEXT NOT NULL,
  arguments_hash TEXT NOT NULL,
  policy_version INTEGER NOT NULL,
  call_id TEXT NOT NULL,
  rule_id TEXT,
  approver_role TEXT,
  message TEXT,
  application TEXT NOT NULL,
  environment TEXT NOT NULL,
  backend TEXT NOT NULL,
  arguments_json TEXT NOT NULL,
  money_json TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  decided_at TEXT,
  decided_by TEXT,
  decided_by_issuer TEXT,
  decided_by_name TEXT,
  decision_reason TEXT,
  used_at TEXT
);
CREATE INDEX consent_approvals_binding ON consent_approvals (subscription, tool, arguments_hash, status);
CREATE INDEX consent_approvals_status ON consent_approvals (status, created_at);`,
  },
];
