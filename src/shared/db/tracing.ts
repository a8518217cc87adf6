// Database CLIENT spans (OpenTelemetry database semantic conventions): one per query and one per
// transaction, children of the active span. Only the shape of a statement is recorded — the operation,
// the first table and a summary such as `SELECT payments` — never parameter values and never the SQL text
// (some statements are assembled from fragments at run time; a summary built from keywords and
// identifiers cannot carry a value). A statement outside any recording span (startup migrations, timers,
// readiness pings) gets no span: a database span is only useful inside the work that caused it, and the
// check is all tracing costs when it is off.
import {
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { Row, SqlExecutor, SqlValue } from './types.js';

const tracer = trace.getTracer('toolgate');

/** What every span of one database carries (fixed when the database is opened). */
export interface DbTraceTarget {
  readonly system: 'postgresql' | 'sqlite';
  /** PostgreSQL: `{database}|{schema}`, the schema being the search_path every statement runs in. */
  readonly namespace?: string;
  readonly serverAddress?: string;
  readonly serverPort?: number;
}

/** The recordable shape of one statement. */
export interface QueryShape {
  /** The statement's first keyword, upper case (`SELECT`, `INSERT`, …). */
  readonly operation: string;
  /** The table, when the statement clearly names one (no joins, no sub-selects). */
  readonly collection: string | undefined;
  /** `{operation} {first table}`, or the operation alone. */
  readonly summary: string;
}

const IDENT = '([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?)';
const TARGETS: Readonly<Record<string, RegExp>> = {
  INSERT: new RegExp(`^INSERT\\s+(?:OR\\s+[A-Z]+\\s+)?INTO\\s+${IDENT}`, 'i'),
  UPDATE: new RegExp(`^UPDATE\\s+${IDENT}`, 'i'),
  DELETE: new RegExp(`^DELETE\\s+FROM\\s+${IDENT}`, 'i'),
  SELECT: new RegExp(`\\bFROM\\s+${IDENT}`, 'i'),
};
const MULTI_TABLE =
  /\bJOIN\b|\(\s*SELECT\b|\bFROM\s+[A-Za-z_][A-Za-z0-9_.]*\s*(?:[A-Za-z_]+\s*)?,/i;

/** Reads a statement's operation and first table from its keywords and identifiers only. */
export function queryShape(sql: string): QueryShape {
  const text = sql.replace(/^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, '');
  const keyword = /^[A-Za-z]+/.exec(text)?.[0]?.toUpperCase() ?? 'QUERY';
  const pattern = TARGETS[keyword];
  const table = pattern?.exec(text)?.[1]?.toLowerCase();
  const single = table !== undefined && !MULTI_TABLE.test(text);
  return {
    operation: keyword,
    collection: single ? table : undefined,
    summary: table === undefined ? keyword : `${keyword} ${table}`,
  };
}

// Statement texts are a set fixed by the code (values travel as placeholders), so shapes are cached per
// text; the bound only guards against a caller that builds SQL per call.
const SHAPE_CACHE_LIMIT = 1000;
const shapes = new Map<string, QueryShape>();

function cachedShape(sql: string): QueryShape {
  let shape = shapes.get(sql);
  if (shape === undefined) {
    shape = queryShape(sql);
    if (shapes.size < SHAPE_CACHE_LIMIT) shapes.set(sql, shape);
  }
  return shape;
}

function recordingParent(): boolean {
  const parent = trace.getSpan(context.active());
  return parent !== undefined && parent.isRecording();
}

function baseAttributes(target: DbTraceTarget): Attributes {
  const attributes: Attributes = { 'db.system.name': target.system };
  if (target.namespace !== undefined) attributes['db.namespace'] = target.namespace;
  if (target.serverAddress !== undefined) attributes['server.address'] = target.serverAddress;
  if (target.serverPort !== undefined) attributes['server.port'] = target.serverPort;
  return attributes;
}

/** A code for `error.type` that names the failure without its message (which may quote values). */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.name : '_OTHER';
}

function fail(span: Span, target: DbTraceTarget, error: unknown): void {
  const type = errorTypeOf(error);
  span.setAttribute('error.type', type);
  // PostgreSQL's SQLSTATE is the conventions' response status code.
  if (target.system === 'postgresql' && /^[0-9A-Z]{5}$/.test(type))
    span.setAttribute('db.response.status_code', type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

async function inQuerySpan<T>(
  target: DbTraceTarget,
  sql: string,
  run: () => Promise<T>,
  rowsOf: (result: T) => number | undefined,
): Promise<T> {
  const shape = cachedShape(sql);
  const attributes = baseAttributes(target);
  attributes['db.operation.name'] = shape.operation;
  attributes['db.query.summary'] = shape.summary;
  if (shape.collection !== undefined) attributes['db.collection.name'] = shape.collection;
  const span = tracer.startSpan(shape.summary, { kind: SpanKind.CLIENT, attributes });
  try {
    const result = await run();
    const rows = rowsOf(result);
    if (rows !== undefined) span.setAttribute('db.response.returned_rows', rows);
    return result;
  } catch (error) {
    fail(span, target, error);
    throw error;
  } finally {
    span.end();
  }
}

const rowCount = (rows: readonly unknown[]) => rows.length;
const none = () => undefined;

/** Wraps an executor so each statement makes a CLIENT span under the active recording span. */
export function withQuerySpans(executor: SqlExecutor, target: DbTraceTarget): SqlExecutor {
  return {
    dialect: executor.dialect,
    query<R extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<R[]> {
      if (!recordingParent()) return executor.query<R>(sql, params);
      return inQuerySpan(target, sql, () => executor.query<R>(sql, params), rowCount);
    },
    execute(sql: string, params?: readonly SqlValue[]): Promise<number> {
      if (!recordingParent()) return executor.execute(sql, params);
      return inQuerySpan(target, sql, () => executor.execute(sql, params), none);
    },
    exec(script: string): Promise<void> {
      if (!recordingParent()) return executor.exec(script);
      return inQuerySpan(target, script, () => executor.exec(script), none);
    },
  };
}

/**
 * Runs `transaction` (BEGIN … work … COMMIT/ROLLBACK) in a CLIENT span named `transaction`, with the
 * work's statements as its children.
 */
export function tracedTransaction<T>(
  target: DbTraceTarget,
  transaction: () => Promise<T>,
): Promise<T> {
  if (!recordingParent()) return transaction();
  const attributes = baseAttributes(target);
  attributes['db.operation.name'] = 'transaction';
  const span = tracer.startSpan('transaction', { kind: SpanKind.CLIENT, attributes });
  return context.with(trace.setSpan(context.active(), span), async () => {
    try {
      return await transaction();
    } catch (error) {
      fail(span, target, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
