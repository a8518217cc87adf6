// Builds an in-process gateway for tests: in-memory SQLite, migrated, with the given backends.
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../../src/config/load.js';
import { buildGatewayApp, type GatewayHooks } from '../../../src/gateway/app.js';
import type { Catalogue } from '../../../src/gateway/catalogue/types.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { BANK_KEY, FIXTURE_DOCUMENT } from './fixture-backend.js';
import { migrateGatewayDatabase } from '../../../src/gateway/storage/database.js';

export interface TestGateway {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly logs: string[];
  close(): Promise<void>;
}

export function fixtureBackendConfig(baseUrl: string, overrides: Record<string, unknown> = {}) {
  return {
    name: 'fixture',
    baseUrl,
    openapi: { file: FIXTURE_DOCUMENT },
    timeouts: { connectMs: 500, headersMs: 1000, totalMs: 1000 },
    injectHeaders: { 'api-key': BANK_KEY },
    approve: 'all',
    ...overrides,
  };
}

export interface TestGatewayOptions {
  readonly catalogue?: Catalogue | undefined;
  readonly logLevel?: string;
  /** A shared database (replicas); the caller closes it. */
  readonly db?: Database;
}

export async function startTestGateway(
  gateway: Record<string, unknown>,
  hooks?: GatewayHooks,
  options: TestGatewayOptions = {},
): Promise<TestGateway> {
  const level = options.logLevel ?? 'info';
  const config = loadConfig({ env: {}, overrides: { logging: { level }, gateway } });
  const db = options.db ?? (await openSqlite({ path: ':memory:' }));
  await migrateGatewayDatabase(db);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = await buildGatewayApp({
    config,
    logger: pino({ level }, stream),
    db,
    hooks,
    catalogue: options.catalogue,
  });
  return {
    app,
    db,
    logs,
    close: async () => {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
