// Database CLIENT spans (src/shared/db/tracing.ts) on both dialects: SQLite always, PostgreSQL when
// DATABASE_URL is set. One span per statement and per transaction under the active span, named by the
// statement's summary, with the database conventions' attributes and never a parameter value.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import { openPostgres } from '../../../src/shared/db/postgres.js';
import { queryShape } from '../../../src/shared/db/tracing.js';
import type { Database } from '../../../src/shared/db/types.js';
import { DATABASE_URL, dropSchema, skipWithoutPostgres, uniqueName } from '../../helpers/infra.js';
import {
  attributeStrings,
  parentIdOf,
  recordSpans,
  type SpanRecorder,
} from '../../helpers/span-recorder.js';

let recorder: SpanRecorder;
before(() => {
  recorder = recordSpans();
});
after(async () => {
  await recorder.stop();
});

test('queryShape reads the operation and table from keywords and identifiers only', () => {
  assert.deepEqual(queryShape('SELECT id, status FROM payments WHERE id = $1'), {
    operation: 'SELECT',
    collection: 'payments',
    summary: 'SELECT payments',
  });
  assert.deepEqual(queryShape('\n  insert into ledger_entries (a) values ($1)'), {
    operation: 'INSERT',
    collection: 'ledger_entries',
    summary: 'INSERT ledger_entries',
  });
  assert.deepEqual(queryShape("UPDATE payments SET status = 'X' WHERE id = $1"), {
    operation: 'UPDATE',
    collection: 'payments',
    summary: 'UPDATE payments',
  });
  assert.deepEqual(queryShape('DELETE FROM idempotency_keys WHERE expires_at < $1'), {
    operation: 'DELETE',
    collection: 'idempotency_keys',
    summary: 'DELETE idempotency_keys',
  });
  // A join names more than one table: the summary keeps the first, the collection is left out.
  assert.deepEqual(
    queryShape('SELECT e.* FROM payment_events e JOIN payments p ON p.id = e.payment_id'),
    {
      operation: 'SELECT',
      collection: undefined,
      summary: 'SELECT payment_events',
    },
  );
  assert.deepEqual(queryShape('SELECT 1'), {
    operation: 'SELECT',
    collection: undefined,
    summary: 'SELECT',
  });
  assert.equal(queryShape('-- note\nCREATE TABLE t (a INT)').operation, 'CREATE');
});

interface Target {
  readonly name: string;
  readonly system: string;
  readonly skip: string | false;
  open(): Promise<{ db: Database; cleanup(): Promise<void> }>;
}

const targets: Target[] = [
  {
    name: 'sqlite',
    system: 'sqlite',
    skip: false,
    async open() {
      const db = openSqlite({
        path: join(mkdtempSync(join(tmpdir(), 'toolgate-dbtrace-')), 't.db'),
      });
      return { db, cleanup: () => db.close() };
    },
  },
  {
    name: 'postgres',
    system: 'postgresql',
    skip: skipWithoutPostgres,
    async open() {
      const schema = uniqueName('tg_dbtrace');
      const db = await openPostgres({
        url: DATABASE_URL ?? '',
        schema,
        poolSize: 3,
        connectTimeoutMs: 5000,
        statementTimeoutMs: 10000,
      });
      return {
        db,
        cleanup: async () => {
          await db.close();
          await dropSchema(schema);
        },
      };
    },
  },
];

const SECRET_VALUE = 'DE89370400440532013000';
const SECRET_NUMBER = 987654321;

for (const target of targets) {
  describe(`database spans: ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    let cleanup: () => Promise<void>;
    const tracer = trace.getTracer('test');

    before(async () => {
      ({ db, cleanup } = await target.open());
      await db.exec('CREATE TABLE accounts (id TEXT PRIMARY KEY, iban TEXT NOT NULL, qty INTEGER)');
    });
    after(async () => cleanup());

    test('statements outside any span make no span (startup, timers, probes)', async () => {
      recorder.reset();
      await db.execute('INSERT INTO accounts (id, iban, qty) VALUES ($1, $2, $3)', ['a0', 'x', 0]);
      await db.query('SELECT id FROM accounts');
      await db.ping();
      assert.deepEqual(recorder.spans(), []);
    });

    test('each statement is a CLIENT child of the active span, with the summary and no values', async () => {
      recorder.reset();
      await tracer.startActiveSpan('parent', async (parent) => {
        await db.execute('INSERT INTO accounts (id, iban, qty) VALUES ($1, $2, $3)', [
          'a1',
          SECRET_VALUE,
          SECRET_NUMBER,
        ]);
        const rows = await db.query('SELECT id, iban FROM accounts WHERE iban = $1', [
          SECRET_VALUE,
        ]);
        assert.equal(rows.length, 1);
        parent.end();
      });
      const spans = recorder.spans();
      const parent = spans.find((s) => s.name === 'parent')!;
      const insert = spans.find((s) => s.name === 'INSERT accounts');
      const select = spans.find((s) => s.name === 'SELECT accounts');
      assert.ok(insert && select, spans.map((s) => s.name).join(', '));
      for (const span of [insert, select]) {
        assert.equal(span.kind, SpanKind.CLIENT);
        assert.equal(parentIdOf(span), parent.spanContext().spanId);
        assert.equal(span.attributes['db.system.name'], target.system);
        assert.equal(span.attributes['db.collection.name'], 'accounts');
        assert.equal(span.attributes['db.query.text'], undefined, 'no SQL text is recorded');
      }
      assert.equal(insert.attributes['db.operation.name'], 'INSERT');
      assert.equal(insert.attributes['db.query.summary'], 'INSERT accounts');
      assert.equal(select.attributes['db.operation.name'], 'SELECT');
      assert.equal(select.attributes['db.response.returned_rows'], 1);
      if (target.system === 'postgresql') {
        const database = new URL(DATABASE_URL ?? '').pathname.slice(1);
        assert.ok(
          String(select.attributes['db.namespace']).startsWith(`${database}|tg_dbtrace_`),
          String(select.attributes['db.namespace']),
        );
        assert.equal(select.attributes['server.address'], '127.0.0.1');
        assert.equal(select.attributes['server.port'], 5432);
      }
      const text = attributeStrings(spans).join('\n');
      assert.ok(!text.includes(SECRET_VALUE) && !text.includes(String(SECRET_NUMBER)), text);
    });

    test('a transaction is a CLIENT span with its statements as children; a rollback is an error', async () => {
      recorder.reset();
      await tracer.startActiveSpan('parent', async (parent) => {
        await db.transaction(async (tx) => {
          await tx.execute('UPDATE accounts SET qty = qty + 1 WHERE id = $1', ['a1']);
          await tx.query('SELECT qty FROM accounts WHERE id = $1', ['a1']);
        });
        await assert.rejects(
          db.transaction(async (tx) => {
            await tx.execute('INSERT INTO accounts (id, iban) VALUES ($1, $2)', [
              'a1',
              SECRET_VALUE,
            ]);
          }),
          { name: 'UniqueViolationError' },
        );
        parent.end();
      });
      const spans = recorder.spans();
      const parent = spans.find((s) => s.name === 'parent')!;
      const [committed, failed] = spans.filter((s) => s.name === 'transaction');
      assert.ok(committed && failed);
      for (const tx of [committed, failed]) {
        assert.equal(tx.kind, SpanKind.CLIENT);
        assert.equal(parentIdOf(tx), parent.spanContext().spanId);
        assert.equal(tx.attributes['db.system.name'], target.system);
      }
      assert.deepEqual(
        spans.filter((s) => parentIdOf(s) === committed.spanContext().spanId).map((s) => s.name),
        ['UPDATE accounts', 'SELECT accounts'],
      );
      assert.equal(committed.status.code, SpanStatusCode.UNSET);
      const insert = spans.find(
        (s) => s.name === 'INSERT accounts' && parentIdOf(s) === failed.spanContext().spanId,
      );
      assert.ok(insert);
      assert.equal(insert.status.code, SpanStatusCode.ERROR);
      assert.equal(insert.attributes['error.type'], 'UniqueViolationError');
      assert.equal(failed.status.code, SpanStatusCode.ERROR);
      assert.equal(failed.attributes['error.type'], 'UniqueViolationError');
      assert.ok(!attributeStrings(spans).join('\n').includes(SECRET_VALUE));
    });

    test('a statement under a span that does not record (sampled out) makes no span', async () => {
      recorder.reset();
      const quiet = trace.wrapSpanContext({
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        spanId: '00f067aa0ba902b7',
        traceFlags: 0,
      });
      await context.with(trace.setSpan(context.active(), quiet), () =>
        db.query('SELECT id FROM accounts'),
      );
      assert.deepEqual(recorder.spans(), []);
    });
  });
}
