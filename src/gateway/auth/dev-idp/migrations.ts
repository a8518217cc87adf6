// Tables of the development authorization server (component "dev-idp" in the gateway database;
// docs/storage-schema.md): oidc-provider's models — registered clients, grants, sessions, interactions,
// authorization codes, refresh tokens — one row each, plus the key that signs its cookies, so a restart
// or another replica on the same database changes nothing for a signed-in client
// (docs/decisions.md, D-294).
import type { Migration } from '../../../shared/db/migrations.js';

export const devIdpMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'development authorization server state',
    // `payload` is the model as oidc-provider hands it over (JSON). Times are epoch milliseconds;
    // `expires_at` is null for what never expires (registered clients).
    up: `
CREATE TABLE dev_idp_entries (
  model TEXT NOT NULL,
  id TEXT NOT NULL,
  payload TEXT NOT NULL,
  grant_id TEXT,
  uid TEXT,
  user_code TEXT,
  consumed_at BIGINT,
  expires_at BIGINT,
  PRIMARY KEY (model, id)
);
CREATE INDEX dev_idp_entries_grant ON dev_idp_entries (grant_id);
CREATE INDEX dev_idp_entries_uid ON dev_idp_entries (model, uid);
CREATE INDEX dev_idp_entries_user_code ON dev_idp_entries (model, user_code);
CREATE INDEX dev_idp_entries_expiry ON dev_idp_entries (expires_at);`,
  },
];
