// Tables of the subscription store (component "subscriptions" in the gateway database).
import type { Migration } from '../../../shared/db/migrations.js';

export const subscriptionMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'subscriptions and their hashed keys',
    up: `
CREATE TABLE subscriptions (
  id TEXT PRIMARY KEY,
  application TEXT NOT NULL,
  environment TEXT NOT NULL CHECK (environment IN ('development', 'staging', 'production')),
  status TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'revoked')),
  tools TEXT,
  rate_limit_per_minute INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX subscriptions_application ON subscriptions (application, environment);
CREATE TABLE subscription_keys (
  key_hash TEXT PRIMARY KEY,
  subscription_id TEXT NOT NULL REFERENCES subscriptions (id),
  slot TEXT NOT NULL CHECK (slot IN ('primary', 'secondary')),
  last4 TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (subscription_id, slot)
);`,
  },
  {
    version: 2,
    name: 'subscriptions may exempt their valid keys from the failed-attempt lockout',
    up: `ALTER TABLE subscriptions ADD COLUMN lockout_exempt INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 3,
    name: 'subscriptions know their application (admin plane); keys record their last use',
    up: `ALTER TABLE subscriptions ADD COLUMN application_id TEXT;
CREATE INDEX subscriptions_application_id ON subscriptions (application_id);
ALTER TABLE subscription_keys ADD COLUMN last_used_at TEXT;`,
  },
  {
    version: 4,
    name: 'subscriptions may be limited to tool bundles',
    // A JSON array of bundle names (gateway.bundles); NULL: not limited (every endpoint).
    up: `ALTER TABLE subscriptions ADD COLUMN bundles TEXT;`,
  },
];
