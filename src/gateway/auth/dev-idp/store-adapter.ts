// Storage of the development authorization server (oidc-provider's adapter interface) in the gateway's
// database (SQLite or PostgreSQL, table dev_idp_entries): every model — clients, grants, sessions, codes,
// refresh tokens, interactions — one row, never returned once expired and purged in passing. A client that
// saved its registration (Inspector, mcp-remote) and its refresh token keeps working across a restart and
// on every replica sharing the database (docs/decisions.md, D-294). The cookie-signing key lives in the same table, so a sign-in started on one
// process finishes on another.
import { randomBytes } from 'node:crypto';
import type { Database } from '../../../shared/db/types.js';

/** Rewrites a model's payload before it is stored (per model name). */
export type StoreFilter = (
  model: string,
  payload: Record<string, unknown>,
) => Record<string, unknown>;

export interface DevIdpStoreOptions {
  readonly filter?: StoreFilter;
  /** Epoch milliseconds; Date.now unless a test drives time. */
  readonly now?: () => number;
}

/** What the authorization server needs from its store: the adapter class and the cookie keys. */
export interface DevIdpStore {
  readonly adapter: new (model: string) => DevIdpAdapter;
  readonly cookieKeys: readonly string[];
}

export interface DevIdpAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** The row of the cookie-signing key (not an oidc-provider model: its name has a prefix none has). */
const COOKIE_KEY = { model: 'toolgate:cookie-keys', id: 'current' } as const;
/** Expired rows are deleted at most this often per process (they are never returned anyway). */
const PURGE_INTERVAL_MS = 60_000;

interface EntryRow {
  payload: string;
  consumed_at: number | string | null;
}

/** Opens the store on a migrated gateway database: loads (or creates, once) the cookie key. */
export async function openDevIdpStore(
  db: Database,
  options: DevIdpStoreOptions = {},
): Promise<DevIdpStore> {
  return {
    adapter: databaseAdapter(db, options),
    cookieKeys: [await cookieKey(db)],
  };
}

/** The shared cookie-signing key: the first process to start creates it, every other one reads it. */
async function cookieKey(db: Database): Promise<string> {
  await db.execute(
    `INSERT INTO dev_idp_entries (model, id, payload) VALUES ($1, $2, $3)
     ON CONFLICT (model, id) DO NOTHING`,
    [COOKIE_KEY.model, COOKIE_KEY.id, JSON.stringify(randomBytes(32).toString('base64url'))],
  );
  const rows = await db.query<{ payload: string }>(
    'SELECT payload FROM dev_idp_entries WHERE model = $1 AND id = $2',
    [COOKIE_KEY.model, COOKIE_KEY.id],
  );
  const key: unknown = JSON.parse(rows[0]?.payload ?? 'null');
  if (typeof key !== 'string') throw new Error('dev_idp_entries: the cookie key row is damaged');
  return key;
}

/** An adapter class for oidc-provider's `adapter` option, bound to one database. */
export function databaseAdapter(
  db: Database,
  options: DevIdpStoreOptions = {},
): new (model: string) => DevIdpAdapter {
  const now = options.now ?? Date.now;
  const filter = options.filter ?? ((_model: string, payload: Record<string, unknown>) => payload);
  let lastPurge = 0;

  const purge = async (): Promise<void> => {
    const at = now();
    if (at - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = at;
    await db.execute(
      'DELETE FROM dev_idp_entries WHERE expires_at IS NOT NULL AND expires_at <= $1',
      [at],
    );
  };

  const live = 'AND (expires_at IS NULL OR expires_at > $3)';
  const payloadOf = (rows: EntryRow[]): Record<string, unknown> | undefined => {
    const row = rows[0];
    if (row === undefined) return undefined;
    const payload = JSON.parse(row.payload) as Record<string, unknown>;
    // oidc-provider reads `consumed` (epoch seconds) to refuse a second use of a code or refresh token.
    if (row.consumed_at !== null) payload.consumed = Math.floor(Number(row.consumed_at) / 1000);
    return payload;
  };

  return class DatabaseAdapter implements DevIdpAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn === undefined ? null : now() + expiresIn * 1000;
      const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
      await db.execute(
        `INSERT INTO dev_idp_entries (model, id, payload, grant_id, uid, user_code, consumed_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, NULL, $7)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
           uid = excluded.uid, user_code = excluded.user_code, consumed_at = NULL,
           expires_at = excluded.expires_at`,
        [
          this.model,
          id,
          JSON.stringify(filter(this.model, { ...payload })),
          text(payload.grantId),
          text(payload.uid),
          text(payload.userCode),
          expiresAt,
        ],
      );
      await purge();
    }

    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return payloadOf(
        await db.query<EntryRow>(
          `SELECT payload, consumed_at FROM dev_idp_entries WHERE model = $1 AND id = $2 ${live}`,
          [this.model, id, now()],
        ),
      );
    }

    async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
      return payloadOf(
        await db.query<EntryRow>(
          `SELECT payload, consumed_at FROM dev_idp_entries WHERE model = $1 AND uid = $2 ${live}`,
          [this.model, uid, now()],
        ),
      );
    }

    async findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined> {
      return payloadOf(
        await db.query<EntryRow>(
          `SELECT payload, consumed_at FROM dev_idp_entries WHERE model = $1 AND user_code = $2 ${live}`,
          [this.model, userCode, now()],
        ),
      );
    }

    async consume(id: string): Promise<void> {
      await db.execute('UPDATE dev_idp_entries SET consumed_at = $3 WHERE model = $1 AND id = $2', [
        this.model,
        id,
        now(),
      ]);
    }

    async destroy(id: string): Promise<void> {
      await db.execute('DELETE FROM dev_idp_entries WHERE model = $1 AND id = $2', [
        this.model,
        id,
      ]);
    }

    /** Revokes every artefact of a grant, whatever its model (oidc-provider calls it per model). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await db.execute('DELETE FROM dev_idp_entries WHERE grant_id = $1', [grantId]);
    }
  };
}
