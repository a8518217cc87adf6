// The gateway's schema versions, applied in order at startup (see docs/storage-schema.md).
import type { Migration } from '../../shared/db/migrations.js';

export const gatewayMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'tool approvals',
    up: `CREATE TABLE gateway_tool_approvals (
  tool_name TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('approved', 'revoked')),
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL
)`,
  },
  {
    version: 2,
    name: 'catalogue generation',
    up: `CREATE TABLE gateway_catalogue_generation (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  generation INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL
)`,
  },
];
