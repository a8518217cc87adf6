// The refresh policy of identity mode delegation against authorization servers that are not oidc-provider:
// a plain OAuth 2.0 server (RFC 8414 metadata only, no OpenID Connect discovery) written here, one that is
// down, and one whose answers break the rules. docs/configuration.md, "Identity mode delegation";
// /work records: "Refresh policy for delegated tokens".
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DelegationConfig } from '../../../src/config/gateway-federation.js';
import type { Caller } from '../../../src/gateway/caller.js';
import { migrateGatewayDatabase } from '../../../src/gateway/database.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import {
  delegationProvider,
  REFRESH_SKEW_MS,
  type DelegationProvider,
} from '../../../src/gateway/federation/delegation/provider.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import { freePort } from '../../helpers/free-port.js';

const KEY = 'delegation-refresh-test-key-0123456789abcdef';
const RESOURCE = 'https://notes.example.test/mcp';

function caller(subject: string): Caller {
  return {
    requestId: 'r',
    clientIp: '127.0.0.1',
    subscription: {
      id: 's',
      application: 'a',
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user: { subject, claims: {}, expiresAt: 0, tokenHash: 'x' },
  };
}

async function body(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A plain OAuth 2.0 authorization server: RFC 8414 metadata at /.well-known/oauth-authorization-server
 * (no openid-configuration), a token endpoint for the refresh grant with client_secret_basic, refresh
 * tokens that rotate (each good once). `tokenType` lets a test make it answer something other than Bearer.
 */
async function startPlainOAuthServer() {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state = {
    refreshTokens: new Map<string, string>(), // refresh token → account
    seen: [] as URLSearchParams[],
    tokenType: 'Bearer',
    counter: 0,
    refusalDelayMs: 0,
  };
  server.on('request', (request, response) => {
    void (async () => {
      if (request.url === '/.well-known/oauth-authorization-server') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            response_types_supported: ['code'],
            code_challenge_methods_supported: ['S256'],
          }),
        );
        return;
      }
      if (request.url === '/token' && request.method === 'POST') {
        const form = await body(request);
        state.seen.push(form);
        // RFC 6749 §2.3.1: id and secret are form-urlencoded, then joined by ':' and base64-encoded.
        const [id = '', secret = ''] = Buffer.from(
          (request.headers.authorization ?? '').replace(/^Basic /, ''),
          'base64',
        )
          .toString('utf8')
          .split(':')
          .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
        const authenticated = id === 'gw' && secret === 'secret-of-the-gateway';
        const account = state.refreshTokens.get(form.get('refresh_token') ?? '');
        if (!authenticated || form.get('grant_type') !== 'refresh_token') {
          response.writeHead(401, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: 'invalid_client' }));
          return;
        }
        if (account === undefined) {
          await new Promise((resolve) => setTimeout(resolve, state.refusalDelayMs));
          response.writeHead(400, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        state.refreshTokens.delete(form.get('refresh_token') ?? '');
        state.counter += 1;
        const refresh = `rt-${account}-${state.counter}`;
        state.refreshTokens.set(refresh, account);
        response.writeHead(200, {
          'content-type': 'application/json',
          'cache-control': 'no-store',
        });
        response.end(
          JSON.stringify({
            access_token: `at-${account}-${state.counter}`,
            token_type: state.tokenType,
            expires_in: 600,
            refresh_token: refresh,
            scope: 'notes:read',
          }),
        );
        return;
      }
      response.writeHead(404).end();
    })();
  });
  return {
    issuer,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('delegation refresh policy (plain OAuth 2.0 server, RFC 8414 discovery)', () => {
  let db: Database;
  let as: Awaited<ReturnType<typeof startPlainOAuthServer>>;
  let delegation: DelegationProvider;
  let downPort: number;
  let now = 1_800_000_000_000;
  let notesConfig: DelegationConfig;

  before(async () => {
    db = openSqlite({ path: ':memory:' });
    await migrateGatewayDatabase(db);
    as = await startPlainOAuthServer();
    downPort = await freePort(); // nothing listens there
    notesConfig = {
      issuer: as.issuer,
      clientId: 'gw',
      clientSecret: 'secret-of-the-gateway',
      scopes: ['notes:read'],
      resource: RESOURCE,
      timeoutMs: 2000,
    };
    delegation = delegationProvider({
      db,
      tokenKey: KEY,
      backends: new Map<string, DelegationConfig>([
        ['notes', notesConfig],
        [
          'down',
          {
            issuer: `http://127.0.0.1:${downPort}`,
            clientId: 'gw',
            scopes: [],
            timeoutMs: 1000,
          },
        ],
      ]),
      connectUrl: (backend) => `http://127.0.0.1:1/portal/federation/${backend}/connect`,
      clock: () => now,
    });
  });
  after(async () => {
    await as?.close();
    await db?.close();
  });

  test('a token inside the skew is refreshed before use; RFC 8707 resource and client auth are sent', async () => {
    as.state.refreshTokens.set('rt-alice-0', 'alice');
    await delegation.store.put('alice', 'notes', {
      accessToken: 'at-alice-0',
      refreshToken: 'rt-alice-0',
      expiresAt: now + REFRESH_SKEW_MS - 1,
      scopes: ['notes:read'],
      tokenType: 'Bearer',
    });
    const credentials = await delegation(caller('alice'), 'notes');
    assert.deepEqual(credentials, {
      kind: 'headers',
      headers: { Authorization: 'Bearer at-alice-1' },
    });
    const sent = as.state.seen.at(-1);
    assert.equal(sent?.get('refresh_token'), 'rt-alice-0');
    assert.equal(sent?.get('resource'), RESOURCE);
    const stored = await delegation.store.get('alice', 'notes');
    assert.equal(stored?.tokens.refreshToken, 'rt-alice-1', 'the rotated refresh token is kept');
    assert.equal(stored?.tokens.expiresAt, now + 600_000);
    // Still fresh a minute later: no second refresh.
    now += 60_000;
    const again = await delegation(caller('alice'), 'notes');
    assert.equal(again.kind === 'headers' && again.headers.Authorization, 'Bearer at-alice-1');
    assert.equal(as.state.seen.length, 1);
  });

  test('a token without an expiry is used as is (until the upstream refuses it)', async () => {
    await delegation.store.put('carol', 'notes', {
      accessToken: 'at-carol-forever',
      scopes: [],
      tokenType: 'Bearer',
    });
    const credentials = await delegation(caller('carol'), 'notes');
    assert.equal(
      credentials.kind === 'headers' && credentials.headers.Authorization,
      'Bearer at-carol-forever',
    );
  });

  test('expired without a refresh token: forgotten, the user signs in again', async () => {
    await delegation.store.put('dave', 'notes', {
      accessToken: 'at-dave',
      expiresAt: now - 1,
      scopes: [],
      tokenType: 'Bearer',
    });
    const credentials = await delegation(caller('dave'), 'notes');
    assert.equal(credentials.kind, 'sign-in');
    assert.equal(await delegation.store.get('dave', 'notes'), null);
  });

  test('a refused refresh (invalid_grant): forgotten, the user signs in again', async () => {
    await delegation.store.put('erin', 'notes', {
      accessToken: 'at-erin',
      refreshToken: 'rt-unknown',
      expiresAt: now - 1,
      scopes: [],
      tokenType: 'Bearer',
    });
    const credentials = await delegation(caller('erin'), 'notes');
    assert.equal(credentials.kind, 'sign-in');
    assert.equal(await delegation.store.get('erin', 'notes'), null);
  });

  test('two replicas refresh at once: the one refused (rotated refresh token) uses the other one’s tokens', async () => {
    // Two gateways on one database; the server rotates refresh tokens (each good once) and answers the
    // refusal a little later than the success, so the winner has stored its tokens by then.
    const replica = delegationProvider({
      db,
      tokenKey: KEY,
      backends: new Map([['notes', { ...notesConfig }]]),
      connectUrl: () => 'http://127.0.0.1:1/',
      clock: () => now,
    });
    as.state.refreshTokens.set('rt-frank-0', 'frank');
    as.state.refusalDelayMs = 300;
    await delegation.store.put('frank', 'notes', {
      accessToken: 'at-frank-0',
      refreshToken: 'rt-frank-0',
      expiresAt: now - 1,
      scopes: [],
      tokenType: 'Bearer',
    });
    const [one, two] = await Promise.all([
      delegation(caller('frank'), 'notes'),
      replica(caller('frank'), 'notes'),
    ]);
    as.state.refusalDelayMs = 0;
    assert.equal(one.kind, 'headers', 'not sent to sign in');
    assert.equal(two.kind, 'headers', 'not sent to sign in');
    assert.deepEqual(one, two, 'both carry the one refreshed token');
    const stored = await delegation.store.get('frank', 'notes');
    assert.equal(
      one.kind === 'headers' && one.headers.Authorization,
      `Bearer ${stored?.tokens.accessToken}`,
    );
  });

  test('an authorization server that is down: the call fails as unavailable, the tokens are kept', async () => {
    await delegation.store.put('alice', 'down', {
      accessToken: 'at-alice-down',
      refreshToken: 'rt-alice-down',
      expiresAt: now - 1,
      scopes: [],
      tokenType: 'Bearer',
    });
    await assert.rejects(delegation(caller('alice'), 'down'), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.code, 'UPSTREAM_UNAVAILABLE');
      assert.match(error.message, /cannot be reached to renew your sign-in/);
      assert.deepEqual(error.data, { backend: 'down', reason: 'DELEGATION_REFRESH_UNAVAILABLE' });
      return true;
    });
    assert.equal(
      (await delegation.store.get('alice', 'down'))?.tokens.refreshToken,
      'rt-alice-down',
      'kept: the user need not sign in again because the server was down',
    );
  });

  test('a token response that is not Bearer is not used (and the tokens are kept)', async () => {
    as.state.tokenType = 'DPoP';
    as.state.refreshTokens.set('rt-gina-0', 'gina');
    await delegation.store.put('gina', 'notes', {
      accessToken: 'at-gina-0',
      refreshToken: 'rt-gina-0',
      expiresAt: now - 1,
      scopes: [],
      tokenType: 'Bearer',
    });
    await assert.rejects(delegation(caller('gina'), 'notes'), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.code, 'UPSTREAM_UNAVAILABLE');
      return true;
    });
    as.state.tokenType = 'Bearer';
    assert.equal((await delegation.store.get('gina', 'notes'))?.tokens.accessToken, 'at-gina-0');
  });
});
