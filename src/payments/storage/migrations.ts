// The payment service's schema versions, applied in order at startup (see docs/storage-schema.md).
import type { Migration } from '../../shared/db/migrations.js';

export const paymentMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'payments, status history, idempotency keys, demo accounts',
    up: `
CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  version INTEGER NOT NULL,
  record TEXT NOT NULL,
  instructed_amount TEXT,
  instructed_currency TEXT,
  instances_consumed INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX payments_owner_created ON payments (owner, created_at, id);
CREATE INDEX payments_owner_status ON payments (owner, status, created_at, id);
CREATE TABLE payment_status_history (
  payment_id TEXT NOT NULL REFERENCES payments (id),
  version INTEGER NOT NULL,
  changed_at TEXT NOT NULL,
  from_status TEXT,
  to_status TEXT NOT NULL,
  reason TEXT,
  actor TEXT NOT NULL,
  PRIMARY KEY (payment_id, version)
);
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  idem_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL,
  locked_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  status_code INTEGER,
  response TEXT,
  CONSTRAINT idempotency_keys_scope_key UNIQUE (scope, idem_key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
CREATE TABLE demo_accounts (
  owner TEXT NOT NULL,
  account_id TEXT NOT NULL,
  currency TEXT NOT NULL,
  opening_balance TEXT NOT NULL,
  opened_at TEXT NOT NULL,
  PRIMARY KEY (owner, account_id)
);
`,
  },
  {
    version: 2,
    name: 'payment history: every change of content or status (rows of payment_status_history copied in)',
    // Additive: payment_status_history stays (no longer written); its rows become the first entries of
    // payment_history, keyed like it by (payment_id, version). kind is inferred from what v1 recorded:
    // creation (no from_status), an update that moved the status (reason UPDATED), the owner's
    // cancellation (to CANCELLED by a user) or a status change by the operator.
    up: `
CREATE TABLE payment_history (
  payment_id TEXT NOT NULL REFERENCES payments (id),
  version INTEGER NOT NULL,
  changed_at TEXT NOT NULL,
  kind TEXT NOT NULL,
  actor TEXT NOT NULL,
  reason TEXT,
  from_status TEXT,
  to_status TEXT,
  details TEXT NOT NULL,
  PRIMARY KEY (payment_id, version)
);
INSERT INTO payment_history
  (payment_id, version, changed_at, kind, actor, reason, from_status, to_status, details)
SELECT payment_id, version, changed_at,
  CASE
    WHEN from_status IS NULL THEN 'CREATED'
    WHEN reason = 'UPDATED' AND actor LIKE 'user:%' THEN 'UPDATED'
    WHEN to_status = 'CANCELLED' AND actor LIKE 'user:%' THEN 'CANCELLED'
    ELSE 'STATUS_CHANGED'
  END,
  actor, reason, from_status, to_status, '{}'
FROM payment_status_history;
`,
  },
  {
    version: 3,
    name: 'status notifications: the outbox of status changes, webhook deliveries and their attempts',
    // payment_events is the transactional outbox: one row per status change (creation and cancellation
    // included), written in the transaction of the change (storage/notification-outbox.ts). The delivery
    // worker fans each event out to the configured receivers (payment_webhook_deliveries, dispatched_at
    // set) and logs every attempt (payment_webhook_attempts). Times are ISO 8601 UTC text.
    up: `
CREATE TABLE payment_events (
  event_id TEXT PRIMARY KEY,
  event_type TEXT NOT NULL,
  payment_id TEXT NOT NULL REFERENCES payments (id),
  payment_version INTEGER NOT NULL,
  owner TEXT NOT NULL,
  from_status TEXT,
  to_status TEXT NOT NULL,
  iso_status TEXT NOT NULL,
  reason TEXT,
  occurred_at TEXT NOT NULL,
  dispatched_at TEXT
);
CREATE INDEX payment_events_payment ON payment_events (payment_id, payment_version);
CREATE INDEX payment_events_undispatched ON payment_events (dispatched_at, occurred_at);
CREATE TABLE payment_webhook_deliveries (
  delivery_id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES payment_events (event_id),
  payment_id TEXT NOT NULL,
  url TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  budget_start INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  lease_token TEXT,
  lease_until TEXT,
  last_status_code INTEGER,
  last_error TEXT,
  delivered_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CONSTRAINT payment_webhook_deliveries_event_url UNIQUE (event_id, url)
);
CREATE INDEX payment_webhook_deliveries_due ON payment_webhook_deliveries (state, next_attempt_at);
CREATE INDEX payment_webhook_deliveries_payment ON payment_webhook_deliveries (payment_id, created_at);
CREATE TABLE payment_webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES payment_webhook_deliveries (delivery_id),
  attempt INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  status_code INTEGER,
  error TEXT,
  next_attempt_at TEXT,
  PRIMARY KEY (delivery_id, attempt)
);
`,
  },
  {
    version: 4,
    name: 'double-entry ledger (append-only journals and entries), standing-order instances',
    // Opening balances of existing demo accounts become opening journals on the account's first use
    // (storage/ledger-repo.ts ensureLedgerAccount), so rows written by any path are covered alike.
    up: {
      sqlite: `
CREATE TABLE ledger_accounts (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  owner TEXT,
  currency TEXT NOT NULL,
  status TEXT NOT NULL,
  account_number TEXT,
  opened_at TEXT NOT NULL,
  closed_at TEXT
);
CREATE INDEX ledger_accounts_number ON ledger_accounts (account_number);
CREATE TABLE ledger_journals (
  id TEXT PRIMARY KEY,
  payment_id TEXT,
  kind TEXT NOT NULL,
  posted_at TEXT NOT NULL,
  description TEXT
);
CREATE INDEX ledger_journals_payment ON ledger_journals (payment_id);
CREATE TABLE ledger_entries (
  journal_id TEXT NOT NULL REFERENCES ledger_journals (id),
  line INTEGER NOT NULL,
  account_id TEXT NOT NULL REFERENCES ledger_accounts (id),
  currency TEXT NOT NULL,
  amount_minor BIGINT NOT NULL,
  posted_at TEXT NOT NULL,
  payment_id TEXT,
  PRIMARY KEY (journal_id, line)
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, posted_at, journal_id);
CREATE INDEX ledger_entries_payment ON ledger_entries (payment_id);
ALTER TABLE payments ADD COLUMN parent_id TEXT;
ALTER TABLE payments ADD COLUMN instance_no INTEGER;
CREATE UNIQUE INDEX payments_parent_instance ON payments (parent_id, instance_no);
CREATE INDEX payments_status ON payments (status, id);

CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
CREATE TRIGGER ledger_journals_no_update BEFORE UPDATE ON ledger_journals
BEGIN SELECT RAISE(ABORT, 'ledger journals are append-only'); END;
CREATE TRIGGER ledger_journals_no_delete BEFORE DELETE ON ledger_journals
BEGIN SELECT RAISE(ABORT, 'ledger journals are append-only'); END;
`,
      postgres: `
CREATE TABLE ledger_accounts (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  owner TEXT,
  currency TEXT NOT NULL,
  status TEXT NOT NULL,
  account_number TEXT,
  opened_at TEXT NOT NULL,
  closed_at TEXT
);
CREATE INDEX ledger_accounts_number ON ledger_accounts (account_number);
CREATE TABLE ledger_journals (
  id TEXT PRIMARY KEY,
  payment_id TEXT,
  kind TEXT NOT NULL,
  posted_at TEXT NOT NULL,
  description TEXT
);
CREATE INDEX ledger_journals_payment ON ledger_journals (payment_id);
CREATE TABLE ledger_entries (
  journal_id TEXT NOT NULL REFERENCES ledger_journals (id),
  line INTEGER NOT NULL,
  account_id TEXT NOT NULL REFERENCES ledger_accounts (id),
  currency TEXT NOT NULL,
  amount_minor BIGINT NOT NULL,
  posted_at TEXT NOT NULL,
  payment_id TEXT,
  PRIMARY KEY (journal_id, line)
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, posted_at, journal_id);
CREATE INDEX ledger_entries_payment ON ledger_entries (payment_id);
ALTER TABLE payments ADD COLUMN parent_id TEXT;
ALTER TABLE payments ADD COLUMN instance_no INTEGER;
CREATE UNIQUE INDEX payments_parent_instance ON payments (parent_id, instance_no);
CREATE INDEX payments_status ON payments (status, id);

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'ledger rows are append-only'; END $$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON ledger_journals
FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
`,
    },
  },
];
