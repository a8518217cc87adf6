// Issue 27, trap 2 ("A restart breaks sign-in"): a client registered with the development authorization
// server, and signed in, keeps working when the server is rebuilt on the same gateway database — the
// refresh token still refreshes, the saved client_id still signs in (no invalid_client), and a sign-in
// begun before the restart finishes after it. On PostgreSQL two servers share the state as replicas do.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { createDevIdp } from '../../../../src/gateway/auth/dev-idp/idp.js';
import { createAuthorizationServer } from '../../../../src/gateway/auth/dev-idp/authorization-server.js';
import {
  devAuthorizationRoutes,
  INTERACTION_SEGMENT,
} from '../../../../src/gateway/auth/dev-idp/routes.js';
import type { Database } from '../../../../src/shared/db/types.js';
import { dropSchema, skipWithoutPostgres, uniqueName } from '../../../helpers/infra.js';
import { openTestStore } from './store.js';

const ORIGIN = 'http://gw.test';
const ISSUER = `${ORIGIN}/dev-idp`;
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = 'http://127.0.0.1:1/cb';
const USERS = [{ sub: 'alice', email: 'alice@example.com' }];

/** One development authorization server process: its routes on a Fastify app, over `db`. */
async function server(dataDir: string, db: Database): Promise<FastifyInstance> {
  const provider = await createAuthorizationServer({
    db,
    issuer: ISSUER,
    idp: await createDevIdp({ dataDir }),
    users: USERS,
    resources: [RESOURCE],
    resourceScopes: ['accounts:read'],
    interactionPath: `/dev-idp${INTERACTION_SEGMENT}`,
    accessTokenTtlSeconds: 600,
    refreshTokenTtlSeconds: 3600,
  });
  const app = Fastify();
  // The browser step made automatic, as TOOLGATE_DEV_AUTO_LOGIN does for the end-to-end tests.
  await app.register(
    devAuthorizationRoutes({ provider, prefix: '/dev-idp', users: USERS, autoLogin: 'alice' }),
  );
  await app.ready();
  return app;
}

/** A browser: cookies kept across requests (and across servers, as a browser keeps them). */
class Browser {
  private readonly jar = new Map<string, string>();

  async get(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
    const target = new URL(url, ORIGIN);
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await app.inject({
      method: 'GET',
      url: `${target.pathname}${target.search}`,
      headers: { host: 'gw.test', ...(cookie === '' ? {} : { cookie }) },
    });
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

function location(response: LightMyRequestResponse): string {
  assert.ok(response.statusCode >= 300 && response.statusCode < 400, response.body.slice(0, 300));
  return String(response.headers.location);
}

async function register(app: FastifyInstance): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/dev-idp/reg',
    headers: { host: 'gw.test', 'content-type': 'application/json' },
    payload: {
      client_name: 'Saved registration',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    },
  });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { client_id: string }).client_id;
}

interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(clientId: string, challenge: string): string {
  return `/dev-idp/auth?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid offline_access accounts:read',
    prompt: 'consent',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: RESOURCE,
  }).toString()}`;
}

/** Follows the redirects from `url` to the client's redirect URI (each hop on the app given for it). */
async function follow(
  browser: Browser,
  apps: (hop: number) => FastifyInstance,
  url: string,
): Promise<string> {
  let next = url;
  for (let hop = 0; hop < 10; hop += 1) {
    if (next.startsWith(REDIRECT)) {
      const code = new URL(next).searchParams.get('code');
      assert.ok(code, next);
      return code;
    }
    next = location(await browser.get(apps(hop), next));
  }
  assert.fail('no redirect to the client after 10 hops');
}

async function token(
  app: FastifyInstance,
  form: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/dev-idp/token',
    headers: { host: 'gw.test', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

async function exchange(
  app: FastifyInstance,
  clientId: string,
  code: string,
  verifier: string,
): Promise<{ access_token: string; refresh_token: string }> {
  const response = await token(app, {
    client_id: clientId,
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: RESOURCE,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json() as { access_token: string; refresh_token: string };
}

function scenario(name: string, open: () => Promise<Database>, skip: string | false): void {
  describe(name, { skip }, () => {
    test('issue 27 trap 2: after a restart the saved client refreshes, signs in again, and a begun sign-in finishes', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'tg-dev-idp-restart-'));
      const firstDb = await open();
      const first = await server(dataDir, firstDb);
      const clientId = await register(first);
      const signIn = pkce();
      const tokens = await exchange(
        first,
        clientId,
        await follow(new Browser(), () => first, authorizeUrl(clientId, signIn.challenge)),
        signIn.verifier,
      );
      // A sign-in the user began in the browser before the restart (the interaction page is open).
      const pending = pkce();
      const browser = new Browser();
      const interaction = location(
        await browser.get(first, authorizeUrl(clientId, pending.challenge)),
      );

      // The restart: the process and its database connection go; a new one opens the same database.
      await first.close();
      await firstDb.close();
      const secondDb = await open();
      const second = await server(dataDir, secondDb);
      try {
        const refreshed = await token(second, {
          client_id: clientId,
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          resource: RESOURCE,
        });
        assert.equal(refreshed.statusCode, 200, `refresh after restart: ${refreshed.body}`);
        const renewed = refreshed.json() as { access_token: string; refresh_token: string };
        assert.equal(decodeJwt(renewed.access_token).sub, 'alice');
        assert.notEqual(renewed.refresh_token, tokens.refresh_token, 'still rotated');

        const again = pkce();
        const code = await follow(
          new Browser(),
          () => second,
          authorizeUrl(clientId, again.challenge),
        );
        const signedIn = await exchange(second, clientId, code, again.verifier);
        assert.equal(decodeJwt(signedIn.access_token).aud, RESOURCE);

        const finished = await follow(browser, () => second, interaction);
        assert.equal(
          decodeJwt((await exchange(second, clientId, finished, pending.verifier)).access_token)
            .sub,
          'alice',
        );
      } finally {
        await second.close();
        await secondDb.close();
      }
    });
  });
}

scenario(
  'development authorization server on SQLite',
  (() => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-dev-idp-db-'));
    return () => openTestStore(dir, undefined, false);
  })(),
  false,
);

const schema = uniqueName('tg_dev_idp_restart');
scenario(
  'development authorization server on PostgreSQL (shared by replicas)',
  () => openTestStore(mkdtempSync(join(tmpdir(), 'tg-dev-idp-db-')), schema, false),
  skipWithoutPostgres,
);

describe('replicas on one PostgreSQL database', { skip: skipWithoutPostgres }, () => {
  test('issue 27 trap 2: a client registered on one replica signs in and refreshes on the other', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tg-dev-idp-replicas-'));
    const dbA = await openTestStore(dataDir, schema);
    const dbB = await openTestStore(dataDir, schema);
    const a = await server(dataDir, dbA);
    const b = await server(dataDir, dbB);
    try {
      const clientId = await register(a);
      const flow = pkce();
      // Every hop of the sign-in lands on the other replica, as a load balancer may send it.
      const code = await follow(
        new Browser(),
        (hop) => (hop % 2 === 0 ? b : a),
        authorizeUrl(clientId, flow.challenge),
      );
      const tokens = await exchange(a, clientId, code, flow.verifier);
      const refreshed = await token(b, {
        client_id: clientId,
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        resource: RESOURCE,
      });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
    } finally {
      await a.close();
      await b.close();
      await dropSchema(schema);
    }
  });
});
