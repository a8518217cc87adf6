// Builds an in-process gateway for tests: in-memory SQLite, migrated, with the given backends.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../../src/config/load.js';
import { createGateway, type CreateGatewayOptions } from '../../../src/gateway/create-gateway.js';
import type { Gatekeeper } from '../../../src/gateway/gatekeeper/gatekeeper.js';
import type { Caller } from '../../../src/gateway/caller.js';
import type { Catalogue } from '../../../src/gateway/catalogue/types.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { after, before } from 'node:test';
import {
  BANK_KEY,
  FIXTURE_DOCUMENT,
  startFixtureBackend,
  type FixtureBackend,
} from './fixture-backend.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import { migrateGatewayDatabase, openGatewayDatabase } from '../../../src/gateway/database.js';
import { SubscriptionStore } from '../../../src/gateway/auth/subscriptions/store.js';
import type { FrozenConfig } from '../../../src/config/schema.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { LogCapture } from '../../helpers/capture.js';

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
  /** Governed actions over these services (doubles of policy, consent and budgets). */
  readonly governance?: CreateGatewayOptions['governance'];
}

/**
 * A gatekeeper that lets every request in as an anonymous caller of a subscription that may use every tool,
 * with no quotas: for tests of the transport, the protocol and the upstream path. The configured
 * gatekeeper (keys, tokens, quotas) is tested in pipeline.test.ts and gatekeeper/.
 */
export const OPEN_GATEKEEPER: Gatekeeper = {
  identify: async (request): Promise<Caller> => ({
    requestId: request.requestId,
    clientIp: request.socketAddress,
    subscription: {
      id: 'sub_test',
      application: 'test-agent',
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user: null,
  }),
  admit: async () => ({}),
  authorize: (caller, tool) => {
    if (tool.securityClass === 'user-scoped' && caller.user === null)
      throw new GatewayError(
        'UNAUTHENTICATED',
        `Tool ${tool.name} acts on behalf of a user`,
        { reason: 'TOKEN_MISSING' },
        { 'WWW-Authenticate': 'Bearer' },
      );
  },
};

export async function startTestGateway(
  gateway: Record<string, unknown>,
  gatekeeper: Gatekeeper = OPEN_GATEKEEPER,
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
  const app = await createGateway({
    config,
    logger: pino({ level }, stream),
    stores: { db },
    gatekeeper,
    catalogue: options.catalogue,
    governance: options.governance,
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

interface KeyOptions {
  readonly application?: string;
  readonly tools?: string[];
  readonly rateLimitPerMinute?: number;
}

export interface ConfiguredGateway {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly config: FrozenConfig;
  /** Every line the redacting logger wrote. */
  readonly logs: LogCapture;
  /** Creates a development subscription (every tool unless `tools` says otherwise); its primary key. */
  issueKey(options?: KeyOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * The gateway as `toolgate gateway` builds it — the configured gatekeeper (subscription keys, user tokens,
 * quotas) and the redacting logger — on an in-memory database, without listening. `gateway` is the
 * configuration's gateway section; the data folder is a fresh temporary one.
 */
export async function startConfiguredGateway(
  gateway: Record<string, unknown>,
  options: { readonly logLevel?: string } = {},
): Promise<ConfiguredGateway> {
  const level = options.logLevel ?? 'warn';
  const config = loadConfig({
    env: {},
    overrides: {
      dataDir: mkdtempSync(join(tmpdir(), 'toolgate-gateway-')),
      logging: { level },
      gateway,
    },
  });
  const db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const logs = new LogCapture();
  const { logger } = createLogger({ level, destination: logs });
  const app = await createGateway({ config, logger, stores: { db } });
  return {
    app,
    db,
    config,
    logs,
    issueKey: async ({ application = 'test-agent', ...rest }: KeyOptions = {}) =>
      (await new SubscriptionStore(db).create({ application, environment: 'development', ...rest }))
        .primaryKey,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

export const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** One `tools/call` at 2025-11-25 through the gateway's app (no socket): the HTTP status and the body. */
export async function injectToolCall(
  gw: TestGateway,
  name: string,
  args: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await gw.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
  return { status: reply.statusCode, body: JSON.parse(reply.body) as Record<string, unknown> };
}

/**
 * Creates a subscription in the configured gateway database, as `toolgate keys create` does, and returns
 * its primary key: for tests of the listening service, which always runs the configured gatekeeper.
 */
export async function issueSubscriptionKey(config: FrozenConfig): Promise<string> {
  const db = await openGatewayDatabase(config.gateway.database, config.dataDir);
  try {
    const issued = await new SubscriptionStore(db).create({
      application: 'test-agent',
      environment: config.environment,
    });
    return issued.primaryKey;
  } finally {
    await db.close();
  }
}

/**
 * The fixture backend and a gateway in front of it (open gatekeeper), started before the file's tests and
 * closed after them. `gateway` is merged over `{ backends: [the fixture backend] }`.
 */
export function fixtureGatewayForFile(gateway: Record<string, unknown> = {}): {
  readonly backend: FixtureBackend;
  readonly gw: TestGateway;
} {
  let backend: FixtureBackend | undefined;
  let gw: TestGateway | undefined;
  before(async () => {
    backend = await startFixtureBackend();
    gw = await startTestGateway({ backends: [fixtureBackendConfig(backend.baseUrl)], ...gateway });
  });
  after(async () => {
    await gw?.close();
    await backend?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the fixture gateway starts in before()');
    return value;
  };
  return {
    get backend() {
      return started(backend);
    },
    get gw() {
      return started(gw);
    },
  };
}
