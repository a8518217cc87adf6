// Tables of the policy engine (component "policies" in the gateway database; docs/storage-schema.md): one
// row per stored rule set. The current set is the highest version; rows are never changed, so the history
// shows every set that was ever in force and who stored it.
import type { Migration } from '../../../shared/db/migrations.js';

export const policyMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'stored policy versions',
    // rules: the rule set as JSON (an array of rules, as gateway.policies spells them).
    up: `CREATE TABLE gateway_policy_versions (
  version INTEGER PRIMARY KEY,
  rules TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL
)`,
  },
];
