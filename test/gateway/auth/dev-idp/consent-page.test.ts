// Issue 27, trap 3 ("The consent page"): the development authorization server's consent page names the
// resource the client will act at and says what each scope allows in words — also when the client asks
// for no tool scope (the page listed nothing after "asks to act for you at:").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { createDevIdp } from '../../../../src/gateway/auth/dev-idp/idp.js';
import { createAuthorizationServer } from '../../../../src/gateway/auth/dev-idp/authorization-server.js';
import {
  devAuthorizationRoutes,
  INTERACTION_SEGMENT,
} from '../../../../src/gateway/auth/dev-idp/routes.js';
import { consentPage, scopeInWords } from '../../../../src/gateway/auth/dev-idp/pages.js';
import { openTestStore } from './store.js';
import type { Database } from '../../../../src/shared/db/types.js';

const ORIGIN = 'http://gw.test';
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = 'http://127.0.0.1:1/cb';
const USERS = [{ sub: 'alice' }];

test('issue 27 trap 3: scopes in words', () => {
  assert.equal(scopeInWords('openid'), 'Know who you are (your user name)');
  assert.match(scopeInWords('offline_access'), /^Stay signed in/);
  assert.equal(scopeInWords('accounts:read'), 'See your accounts through the gateway’s tools');
  assert.equal(
    scopeInWords('payments:write'),
    'Create and change your payments through the gateway’s tools',
  );
  assert.equal(scopeInWords('x-custom'), 'Use the gateway’s tools that need this permission');
  const page = consentPage({
    action: '/a',
    clientName: 'Agent',
    user: 'alice',
    scopes: ['accounts:read'],
    resources: [RESOURCE],
  });
  assert.match(
    page,
    /See your accounts through the gateway’s tools <span class="note">\(<code>accounts:read<\/code>\)/,
  );
  assert.match(page, /the toolgate gateway at <code>http:\/\/gw\.test\/mcp<\/code>/);
});

describe('consent page through the routes', () => {
  let app: FastifyInstance;
  let db: Database;
  const jar = new Map<string, string>();

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-dev-idp-consent-'));
    db = await openTestStore(dir, undefined, false);
    const provider = await createAuthorizationServer({
      db,
      issuer: `${ORIGIN}/dev-idp`,
      idp: await createDevIdp({ dataDir: dir }),
      users: USERS,
      resources: [RESOURCE],
      resourceScopes: ['accounts:read'],
      interactionPath: `/dev-idp${INTERACTION_SEGMENT}`,
      accessTokenTtlSeconds: 600,
      refreshTokenTtlSeconds: 3600,
    });
    app = Fastify();
    await app.register(
      devAuthorizationRoutes({ provider, prefix: '/dev-idp', users: USERS, resources: [RESOURCE] }),
    );
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  async function send(method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
    const target = new URL(url, ORIGIN);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await app.inject({
      method,
      url: `${target.pathname}${target.search}`,
      headers: {
        host: 'gw.test',
        ...(cookie === '' ? {} : { cookie }),
        ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form === undefined ? {} : { payload: new URLSearchParams(form).toString() }),
    });
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  const location = (response: LightMyRequestResponse): string => {
    assert.ok(response.statusCode >= 300 && response.statusCode < 400, response.body.slice(0, 900));
    return String(response.headers.location);
  };

  async function consentFor(scope: string, resource: string | undefined): Promise<string> {
    jar.clear();
    const registered = await app.inject({
      method: 'POST',
      url: '/dev-idp/reg',
      headers: { host: 'gw.test', 'content-type': 'application/json' },
      payload: {
        client_name: 'Claude',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      },
    });
    const clientId = (registered.json() as { client_id: string }).client_id;
    const challenge = createHash('sha256')
      .update(randomBytes(32).toString('base64url'))
      .digest('base64url');
    const params = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope,
      prompt: 'consent',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...(resource === undefined ? {} : { resource }),
    });
    const toLogin = location(await send('GET', `/dev-idp/auth?${params.toString()}`));
    const resume = location(
      await send('POST', `${new URL(toLogin, ORIGIN).pathname}/login`, { sub: 'alice' }),
    );
    const page = await send('GET', location(await send('GET', resume)));
    assert.equal(page.statusCode, 200);
    return page.body;
  }

  test('issue 27 trap 3: a client asking only to sign in sees the resource and the scopes in words', async () => {
    for (const resource of [RESOURCE, undefined]) {
      const body = await consentFor('openid profile offline_access', resource);
      assert.match(
        body,
        /<strong>Claude<\/strong> asks to call tools as you at:<\/p><ul><li>the toolgate gateway at <code>http:\/\/gw\.test\/mcp<\/code><\/li><\/ul>/,
      );
      assert.match(body, /Know who you are \(your user name\)/);
      assert.match(body, /See your name and email address/);
      assert.match(body, /Stay signed in: renew its access without asking you again/);
    }
  });

  test('issue 27 trap 3: a tool scope is named in words next to the resource', async () => {
    const body = await consentFor('openid accounts:read', RESOURCE);
    assert.match(body, /the toolgate gateway at <code>http:\/\/gw\.test\/mcp<\/code>/);
    assert.match(body, /See your accounts through the gateway’s tools/);
    assert.doesNotMatch(body, /<ul><\/ul>/, 'no empty list');
  });
});
