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
  {
    version: 3,
    name: 'identity-provider settings versions',
    up: `CREATE TABLE gateway_idp_settings (
  version INTEGER PRIMARY KEY,
  settings TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT NOT NULL,
  reverted_from INTEGER
)`,
  },
  {
    version: 4,
    name: 'tool settings',
    up: `CREATE TABLE gateway_tool_settings (
  tool_name TEXT PRIMARY KEY,
  settings TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL
)`,
  },
  {
    version: 5,
    name: 'usage per minute',
    // h0..h9: latency histogram counts (bounds in src/gateway/usage/histogram.ts).
    up: `CREATE TABLE gateway_usage_minutes (
  minute TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  tool TEXT NOT NULL,
  requests BIGINT NOT NULL,
  quota_refusals BIGINT NOT NULL,
  errors BIGINT NOT NULL,
  latency_count BIGINT NOT NULL,
  latency_sum_us BIGINT NOT NULL,
  h0 BIGINT NOT NULL DEFAULT 0,
  h1 BIGINT NOT NULL DEFAULT 0,
  h2 BIGINT NOT NULL DEFAULT 0,
  h3 BIGINT NOT NULL DEFAULT 0,
  h4 BIGINT NOT NULL DEFAULT 0,
  h5 BIGINT NOT NULL DEFAULT 0,
  h6 BIGINT NOT NULL DEFAULT 0,
  h7 BIGINT NOT NULL DEFAULT 0,
  h8 BIGINT NOT NULL DEFAULT 0,
  h9 BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (minute, subscription_id, tool)
)`,
  },
  {
    version: 6,
    name: 'catalogue generation: forced, tool counts',
    // forced: the reload was forced past the reload guard; tool_counts: JSON, tools per backend of the
    // catalogue last accepted (what `toolgate tools reload` compares a new one with).
    up: `ALTER TABLE gateway_catalogue_generation ADD COLUMN forced INTEGER NOT NULL DEFAULT 0;
ALTER TABLE gateway_catalogue_generation ADD COLUMN tool_counts TEXT`,
  },
  {
    version: 7,
    name: 'pinned tool definitions',
    // One row per pinned tool (issue 25): the definition approved (canonical JSON) and its SHA-256; held_*:
    // the changed definition last recorded as held back (cleared by re-approval), so each hold-back is
    // recorded and audited once across replicas.
    up: `CREATE TABLE gateway_tool_pins (
  tool_name TEXT PRIMARY KEY,
  definition_hash TEXT NOT NULL,
  definition TEXT NOT NULL,
  pinned_at TEXT NOT NULL,
  pinned_by TEXT NOT NULL,
  held_hash TEXT,
  held_definition TEXT,
  held_at TEXT
)`,
  },
  {
    version: 8,
    name: 'usage latency range',
    // The smallest and largest latency of each minute row (µs; NULL in rows recorded before): they bound
    // the p50/p95 estimate (src/gateway/usage/histogram.ts), so one call's p50 = p95 = its latency.
    up: `ALTER TABLE gateway_usage_minutes ADD COLUMN latency_min_us BIGINT;
ALTER TABLE gateway_usage_minutes ADD COLUMN latency_max_us BIGINT`,
  },
  {
    version: 9,
    name: 'delegated upstream tokens',
    // Federation (issue 28), identity mode delegation: each user's tokens at an upstream MCP server's own
    // authorization server, one row per (user subject, backend). `sealed` is AES-256-GCM under a key
    // derived from gateway.federation.tokenKey with the subject and backend as associated data
    // (federation/delegation/token-cipher.ts): a copied row opens for no one else, a database copy opens
    // for no one without the key. expires_at (ms, NULL: the server gave no lifetime) is informational;
    // the sealed copy decides. gateway_delegation_logins: sign-ins in flight (state hash → the portal
    // user who started it, the browser binding, PKCE verifier and nonce), usable once, for ten minutes.
    up: `CREATE TABLE gateway_delegated_tokens (
  subject TEXT NOT NULL,
  backend TEXT NOT NULL,
  sealed TEXT NOT NULL,
  expires_at BIGINT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (subject, backend)
);
CREATE TABLE gateway_delegation_logins (
  state_hash TEXT PRIMARY KEY,
  subject TEXT NOT NULL,
  backend TEXT NOT NULL,
  binding_hash TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  nonce TEXT,
  code_verifier TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX gateway_delegation_logins_expires ON gateway_delegation_logins (expires_at)`,
  },
];
