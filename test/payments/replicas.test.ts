// Idempotency and optimistic concurrency hold across replicas: two service instances with their own
// connections to ONE database (a shared SQLite file, or one PostgreSQL schema) receive the same
// requests in parallel over real sockets.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/shared/log/logger.js';
import { openSqlite } from '../../src/shared/db/sqlite.js';
import { openPostgres } from '../../src/shared/db/postgres.js';
import { runMigrations } from '../../src/shared/db/migrations.js';
import type { Database } from '../../src/shared/db/types.js';
import { buildPaymentsApp } from '../../src/payments/app.js';
import { directoryMigrations } from '../../src/payments/directory/migrations.js';
import { paymentMigrations } from '../../src/payments/storage/migrations.js';
import { DATABASE_URL, dropSchema, uniqueName } from '../helpers/infra.js';
import { LogCapture } from '../helpers/capture.js';
import {
  forEachStore,
  holdSampleAccounts,
  samplePayment,
  userHeaders,
  BASE,
  GATEWAY_SECRET,
} from './harness.js';

forEachStore('replicas sharing one database', (kind) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolgate-replicas-'));
  const schema = uniqueName('payments_replicas');
  const dbs: Database[] = [];
  const apps: FastifyInstance[] = [];
  const urls: string[] = [];
  before(async () => {
    const config = loadConfig({
      env: {},
      overrides: {
        // The suite repeats one order on purpose: no duplicate check (issue 26, item 8).
        payments: { identity: { sharedSecret: GATEWAY_SECRET }, duplicates: { windowSeconds: 0 } },
      },
    });
    for (let i = 0; i < 2; i++) {
      const db =
        kind === 'sqlite'
          ? openSqlite({ path: path.join(dir, 'shared.db') })
          : await openPostgres({
              url: DATABASE_URL ?? '',
              schema,
              poolSize: 20,
              connectTimeoutMs: 5000,
              statementTimeoutMs: 15000,
            });
      await runMigrations(db, 'payments', paymentMigrations);
      await runMigrations(db, 'bank-directory', directoryMigrations); // consulted at acceptance
      const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
      const app = await buildPaymentsApp({ config, logger, db });
      dbs.push(db);
      apps.push(app);
      urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
    }
    const [first] = dbs;
    if (first) await holdSampleAccounts(first, 'replicated');
  });
  after(async () => {
    for (const app of apps) await app.close();
    for (const db of dbs) await db.close();
    rmSync(dir, { recursive: true, force: true });
    if (kind === 'postgres') await dropSchema(schema);
  });

  const call = async (
    i: number,
    method: 'POST' | 'PUT',
    p: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await request(`${urls[i % urls.length]}${BASE}/${p}`, {
      method,
      headers: { 'content-type': 'application/json', ...userHeaders('replicated'), ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: res.statusCode,
      replayed: res.headers['idempotent-replayed'] === 'true',
      body: (await res.body.json()) as Record<string, Record<string, unknown>>,
    };
  };

  test('40 parallel creates with one key spread over two replicas → one payment', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(i, 'POST', 'payments', samplePayment(), { 'idempotency-key': 'replica-key' }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 201 && !r.replayed).length, 1);
    assert.ok(
      results.every((r) => r.status === 201 || r.status === 409),
      JSON.stringify(results.map((r) => r.status)),
    );
    const rows = await dbs[0]?.query('SELECT id FROM payments WHERE owner = $1', ['replicated']);
    assert.equal(rows?.length, 1);
  });

  test('parallel updates with one If-Match over two replicas → exactly one succeeds', async () => {
    const created = await call(0, 'POST', 'payments', samplePayment());
    const id = String(created.body['paymentInstructionReference']?.['identification']);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(i, 'PUT', `payments/${id}`, samplePayment({ customFields: { i } }), {
          'if-match': '"v1"',
        }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.equal(results.filter((r) => r.status === 412).length, 9);
  });
});
