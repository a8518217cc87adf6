// Scope step-up with the official SDK client against the gateway and its development authorization
// server (in process, on a loopback port): signed in with the base scopes, the client calls a tool that
// needs `payments:read`, gets 403 insufficient_scope naming it, signs in again asking for it, and the call
// then goes through.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { loadConfig } from '../../../../src/config/load.js';
import { createGateway } from '../../../../src/gateway/create-gateway.js';
import { SubscriptionStore } from '../../../../src/gateway/auth/subscriptions/store.js';
import { migrateGatewayDatabase } from '../../../../src/gateway/storage/database.js';
import { openSqlite } from '../../../../src/shared/db/sqlite.js';
import type { Database } from '../../../../src/shared/db/types.js';
import { createLogger } from '../../../../src/shared/log/logger.js';
import { LogCapture } from '../../../helpers/capture.js';
import { BrowserlessOAuthProvider } from '../../../helpers/oauth-client.js';
import { startFixtureBackend, type FixtureBackend } from '../../support/fixture-backend.js';
import { fixtureBackendConfig } from '../../support/gateway.js';

let backend: FixtureBackend;
let app: FastifyInstance;
let db: Database;
let mcpUrl: string;
let key: string;

/** A loopback port free right now: the issuer must name the port before the gateway is built. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

before(async () => {
  backend = await startFixtureBackend();
  const port = await freePort();
  const config = loadConfig({
    env: {},
    overrides: {
      dataDir: mkdtempSync(join(tmpdir(), 'toolgate-step-up-')),
      logging: { level: 'warn' },
      gateway: {
        host: '127.0.0.1',
        port,
        backends: [
          fixtureBackendConfig(backend.baseUrl, {
            identity: { mode: 'headers', sharedSecret: 'gateway-to-backend-secret-42' },
            tools: { getPayment: { scopes: ['payments:read'] } },
          }),
        ],
        auth: { devIdentityProvider: { autoLogin: 'alice' } },
      },
    },
  });
  db = openSqlite({ path: ':memory:' });
  await migrateGatewayDatabase(db);
  const { logger } = createLogger({ level: 'warn', destination: new LogCapture() });
  app = await createGateway({ config, logger, stores: { db } });
  await app.listen({ port, host: '127.0.0.1' });
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
  key = (await new SubscriptionStore(db).create({ application: 'a', environment: 'development' }))
    .primaryKey;
});

after(async () => {
  await app.close();
  await db.close();
  await backend.close();
});

function transport(provider: BrowserlessOAuthProvider): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(mcpUrl), {
    authProvider: provider,
    requestInit: { headers: { 'Ocp-Apim-Subscription-Key': key } },
  });
}

/** Runs `call`; on the SDK's UnauthorizedError (it sent the user to sign in), finishes the sign-in. */
async function signInWhenAsked(
  provider: BrowserlessOAuthProvider,
  call: (client: Client) => Promise<unknown>,
): Promise<boolean> {
  const client = new Client({ name: 'step-up', version: '1.0.0' });
  try {
    await client.connect(transport(provider));
    await call(client);
    return false;
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
    assert.ok(provider.callback !== undefined);
    await transport(provider).finishAuth(provider.callback);
    return true;
  } finally {
    await client.close();
  }
}

test('403 insufficient_scope → the SDK signs in again asking for the named scope → the call succeeds', async () => {
  const provider = new BrowserlessOAuthProvider();
  const balance = (client: Client) =>
    client.callTool({ name: 'getMyAccountBalance', arguments: {} });
  const payment = (client: Client) =>
    client.callTool({ name: 'getPayment', arguments: { paymentId: 'p-1' } });

  assert.equal(await signInWhenAsked(provider, balance), true, 'first sign-in');
  const first = decodeJwt(provider.stored?.access_token ?? '');
  assert.equal(first.sub, 'alice');
  assert.ok(!String(first.scope ?? '').includes('payments:read'), 'not asked for yet');

  assert.equal(await signInWhenAsked(provider, payment), true, 'step-up sign-in');
  const stepUp = provider.authorizations[1];
  assert.ok(stepUp !== undefined);
  assert.ok(
    (stepUp.searchParams.get('scope') ?? '').split(' ').includes('payments:read'),
    `the step-up asks for the challenged scope: ${stepUp.searchParams.get('scope')}`,
  );
  assert.match(String(decodeJwt(provider.stored?.access_token ?? '').scope), /payments:read/);

  const before = backend.requests.length;
  assert.equal(await signInWhenAsked(provider, payment), false, 'no third sign-in');
  assert.equal(backend.requests.length, before + 1, 'the call reached the backend');
  assert.equal(provider.authorizations.length, 2);
});
