// PostgreSQL via pg: a pool with connect and statement timeouts, every connection pinned to the
// service's own schema through search_path.
import pg from 'pg';
import { maskUrlPassword } from '../log/mask.js';
import { tracedTransaction, withQuerySpans, type DbTraceTarget } from './tracing.js';
import {
  StoreUnavailableError,
  UniqueViolationError,
  type Database,
  type Row,
  type SqlExecutor,
  type SqlValue,
} from './types.js';

export interface PostgresOptions {
  readonly url: string;
  readonly schema: string;
  readonly poolSize: number;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * CREATE SCHEMA IF NOT EXISTS is not safe against itself: of replicas starting at once on a new database,
 * the ones that lose the race get a unique violation (23505) on pg_namespace although the schema now
 * exists. That one error means "created by another process" and is not a failure.
 */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (error) {
    if ((error as { code?: unknown }).code !== '23505') throw error;
  }
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`invalid schema name ${options.schema}`);
  const target = maskUrlPassword(options.url);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    idle_in_transaction_session_timeout: Math.max(options.statementTimeoutMs * 2, 10000),
    options: `-c search_path=${options.schema}`,
    application_name: 'toolgate',
    types: { getTypeParser: typeParser },
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);

  try {
    await createSchema(pool, options.schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreUnavailableError(`cannot connect to PostgreSQL at ${target}: ${reason}`);
  }

  const traceTarget = postgresTraceTarget(options.url, options.schema);
  const executorFor = (client: pg.Pool | pg.PoolClient): SqlExecutor =>
    withQuerySpans(plainExecutorFor(client), traceTarget);
  const plainExecutorFor = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    dialect: 'postgres',
    async query<R extends object = Row>(
      sql: string,
      params: readonly SqlValue[] = [],
    ): Promise<R[]> {
      try {
        const result = await client.query(sql, params as unknown[]);
        return result.rows as R[];
      } catch (error) {
        throw translate(error);
      }
    },
    async execute(sql: string, params: readonly SqlValue[] = []): Promise<number> {
      try {
        const result = await client.query(sql, params as unknown[]);
        return result.rowCount ?? 0;
      } catch (error) {
        throw translate(error);
      }
    },
    async exec(script: string): Promise<void> {
      try {
        await client.query(script);
      } catch (error) {
        throw translate(error);
      }
    },
  });

  const root = executorFor(pool);
  return {
    ...root,
    target,
    transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return tracedTransaction(traceTarget, async () => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await work(executorFor(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      });
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/** Span attributes naming this database: the schema and the server (never the user or password). */
function postgresTraceTarget(url: string, schema: string): DbTraceTarget {
  let address: string | undefined;
  let port: number | undefined;
  let database = '';
  try {
    const parsed = new URL(url);
    if (parsed.hostname !== '') address = parsed.hostname;
    port = parsed.port === '' ? 5432 : Number(parsed.port);
    database = decodeURIComponent(parsed.pathname.slice(1));
  } catch {
    // An unparsable URL fails at connect; the spans just go without the server fields.
  }
  // The conventions' PostgreSQL namespace: `{database}|{schema}` (the schema alone without a database).
  const namespace = database === '' ? schema : `${database}|${schema}`;
  return { system: 'postgresql', namespace, serverAddress: address, serverPort: port };
}

/** BIGINT (int8) comes back as a JS number (ids and epoch milliseconds stay far below 2^53); NUMERIC
 * stays a string so money is never rounded through a float. */
const typeParser = ((oid: number, format?: string) =>
  oid === 20
    ? (value: string) => Number(value)
    : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser;

function translate(error: unknown): unknown {
  const e = error as { code?: string; constraint?: string };
  if (e && e.code === '23505') return new UniqueViolationError(e.constraint);
  return error;
}
