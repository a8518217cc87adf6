// Embedded SQLite via better-sqlite3: WAL journal, synchronous=FULL (an acknowledged commit survives a
// power cut or kill -9), a busy timeout so several processes can share the file, and one async queue so
// a transaction's statements never interleave with another caller's on the shared connection.
import BetterSqlite3 from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  StoreUnavailableError,
  UniqueViolationError,
  type Database,
  type Row,
  type SqlExecutor,
  type SqlValue,
} from './types.js';
import { tracedTransaction, withQuerySpans, type DbTraceTarget } from './tracing.js';

export interface SqliteOptions {
  /** File path, or ":memory:". */
  readonly path: string;
  readonly busyTimeoutMs?: number;
}

interface Compiled {
  readonly sql: string;
  readonly order: readonly number[];
}

/** Rewrites $1..$n placeholders to "?" and records which parameter each occurrence takes. */
export function compilePlaceholders(sql: string): Compiled {
  const order: number[] = [];
  const out = sql.replace(/\$(\d+)/g, (_m, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  return { sql: out, order };
}

function bind(params: readonly SqlValue[], order: readonly number[]): unknown[] {
  return order.map((i) => {
    const value = params[i];
    if (typeof value === 'boolean') return value ? 1 : 0;
    return value === undefined ? null : value;
  });
}

/**
 * Every native object better-sqlite3 hands out (connections and prepared statements), kept for the life
 * of the process. better-sqlite3 12 builds on node::ObjectWrap, whose destructor on Node >= 24.19 aborts
 * the process (`RemoveEnvironmentCleanupHook: (env) != nullptr`) when the garbage collector frees the
 * object outside a JavaScript context, as an idle-time GC does. An object that never becomes garbage is
 * never freed that way; Node frees the retained ones itself when the process ends. Statements are
 * cached per SQL text, so this holds one entry per distinct statement, not one per query; the version
 * that would avoid it (13, on Node-API) requires Node >= 22 (docs/decisions.md, D-023).
 */
const retainedNativeObjects = new Set<object>();

/**
 * A database holds subscriptions, payments and key hashes: only the service's own user may read it. The
 * folder is created 0700, the database file 0600 before SQLite opens it (SQLite gives its -wal and -shm
 * files the database file's mode), and files left wider by an earlier version are narrowed, whatever the
 * process umask.
 */
function restrictStoreFiles(path: string): void {
  const folder = dirname(path);
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  }
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
}

export function openSqlite(options: SqliteOptions): Database {
  let db: BetterSqlite3.Database;
  try {
    if (options.path !== ':memory:') restrictStoreFiles(options.path);
    db = new BetterSqlite3(options.path);
    retainedNativeObjects.add(db);
    // exec, not db.pragma(): pragma() prepares a throw-away statement each time (see above).
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`cannot open SQLite database ${options.path}: ${reason}`);
  }

  const statements = new Map<string, { stmt: BetterSqlite3.Statement; order: readonly number[] }>();
  const prepare = (sql: string) => {
    let entry = statements.get(sql);
    if (!entry) {
      const compiled = compilePlaceholders(sql);
      entry = { stmt: db.prepare(compiled.sql), order: compiled.order };
      // No eviction: values always travel as placeholders, so the SQL texts are a set fixed by the code
      // (a few hundred at most), and an evicted statement would have to be retained anyway.
      retainedNativeObjects.add(entry.stmt);
      statements.set(sql, entry);
    }
    return entry;
  };

  const run = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw translate(error);
    }
  };

  const direct: SqlExecutor = {
    dialect: 'sqlite',
    async query<R extends object = Row>(
      sql: string,
      params: readonly SqlValue[] = [],
    ): Promise<R[]> {
      return run(() => {
        const { stmt, order } = prepare(sql);
        const args = bind(params, order);
        return (stmt.reader ? stmt.all(...args) : (stmt.run(...args), [])) as R[];
      });
    },
    async execute(sql: string, params: readonly SqlValue[] = []): Promise<number> {
      return run(() => {
        const { stmt, order } = prepare(sql);
        return stmt.run(...bind(params, order)).changes;
      });
    },
    async exec(script: string): Promise<void> {
      run(() => db.exec(script));
    },
  };

  // One connection, one logical owner at a time: transactions hold the queue until they finish.
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(() => undefined);
    return next;
  };

  // Spans measure from the call, so a statement's span includes its wait for the shared connection.
  const traceTarget: DbTraceTarget = { system: 'sqlite' };
  const queued = withQuerySpans(
    {
      dialect: 'sqlite',
      query: (sql, params) => exclusive(() => direct.query(sql, params)),
      execute: (sql, params) => exclusive(() => direct.execute(sql, params)),
      exec: (script) => exclusive(() => direct.exec(script)),
    },
    traceTarget,
  );
  const inTransaction = withQuerySpans(direct, traceTarget);

  return {
    ...queued,
    target: options.path,
    transaction: <T>(work: (tx: SqlExecutor) => Promise<T>) =>
      tracedTransaction(traceTarget, () =>
        exclusive(async () => {
          run(() => db.exec('BEGIN IMMEDIATE'));
          try {
            const result = await work(inTransaction);
            run(() => db.exec('COMMIT'));
            return result;
          } catch (error) {
            if (db.inTransaction) db.exec('ROLLBACK');
            throw error;
          }
        }),
      ),
    ping: async () => {
      run(() => prepare('SELECT 1').stmt.get());
    },
    close: async () => {
      await tail;
      if (db.open) db.close();
    },
  };
}

function translate(error: unknown): unknown {
  if (error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
    return new UniqueViolationError(/UNIQUE constraint failed: (.*)$/.exec(error.message)?.[1]);
  }
  if (
    error instanceof Error &&
    (error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  ) {
    return new UniqueViolationError('primary key');
  }
  return error;
}
