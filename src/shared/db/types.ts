// The storage seam both services use: one small async interface over SQLite (embedded) and PostgreSQL.
// SQL is written once with PostgreSQL-style numbered placeholders ($1, $2 …); the SQLite adapter
// rewrites them. Keep SQL to the common subset, or branch on `dialect` where the two differ.

export type SqlValue = string | number | bigint | boolean | null | Buffer;

export type Row = Record<string, unknown>;

export interface SqlExecutor {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs a statement and returns its rows (empty for statements without RETURNING). */
  query<R extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]>;
  /** Runs a statement and returns the number of rows it changed. */
  execute(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs a script of several statements without parameters (migrations, DDL). */
  exec(script: string): Promise<void>;
}

export interface Database extends SqlExecutor {
  /** Human-readable target with any password masked (for logs and errors). */
  readonly target: string;
  /**
   * Runs `work` in one transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: READ COMMITTED unless told
   * otherwise). Commits when it resolves, rolls back when it throws.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Cheap round trip used by readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when a unique constraint is violated, in both dialects (callers map it to a business error). */
export class UniqueViolationError extends Error {
  constructor(readonly constraint: string | undefined) {
    super(`unique constraint violated${constraint ? `: ${constraint}` : ''}`);
    this.name = 'UniqueViolationError';
  }
}

/** A store could not be reached or opened at startup. Message names the target, password masked. */
export class StoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
