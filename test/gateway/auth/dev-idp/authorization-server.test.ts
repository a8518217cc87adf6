// The development authorization server through its HTTP routes (Fastify inject, no socket): the sign-in
// page and the consent step as a browser meets them, the code exchange with PKCE and a resource, refresh
// token rotation, the RFC 8414 metadata URLs, and the page's escaping and CSP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createDevIdp, type DevIdp } from '../../../../src/gateway/auth/dev-idp/idp.js';
import { createAuthorizationServer } from '../../../../src/gateway/auth/dev-idp/authorization-server.js';
import { openTestStore } from './store.js';
import type { Database } from '../../../../src/shared/db/types.js';
import {
  devAuthorizationRoutes,
  INTERACTION_SEGMENT,
} from '../../../../src/gateway/auth/dev-idp/routes.js';

const ORIGIN = 'http://gw.test';
const ISSUER = `${ORIGIN}/dev-idp`;
const RESOURCE = `${ORIGIN}/mcp`;
const REDIRECT = 'http://127.0.0.1:1/cb';
const USERS = [
  { sub: 'alice', name: 'Alice <script>alert(1)</script>', email: 'alice@example.com' },
  { sub: 'bob', name: 'Bob' },
];

describe('development authorization server', () => {
  let dir: string;
  let idp: DevIdp;
  let app: FastifyInstance;
  let db: Database;
  const jar = new Map<string, string>();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tg-dev-as-'));
    idp = await createDevIdp({ dataDir: dir });
    const provider = await createAuthorizationServer({
      db: (db = await openTestStore(dir, undefined, false)),
      issuer: ISSUER,
      idp,
      users: USERS,
      resources: [RESOURCE],
      resourceScopes: ['accounts:read'],
      interactionPath: `/dev-idp${INTERACTION_SEGMENT}`,
      accessTokenTtlSeconds: 600,
      refreshTokenTtlSeconds: 3600,
    });
    app = Fastify();
    await app.register(devAuthorizationRoutes({ provider, prefix: '/dev-idp', users: USERS }));
    await app.ready();
  });
  after(async () => {
    await app.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function send(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
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

  function location(response: LightMyRequestResponse): string {
    assert.ok(response.statusCode >= 300 && response.statusCode < 400, response.body.slice(0, 300));
    return String(response.headers.location);
  }

  async function register(): Promise<string> {
    const response = await app.inject({
      method: 'POST',
      url: '/dev-idp/reg',
      headers: { host: 'gw.test', 'content-type': 'application/json' },
      payload: {
        client_name: 'Test <b>client</b>',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      },
    });
    assert.equal(response.statusCode, 201, response.body);
    return (response.json() as { client_id: string }).client_id;
  }

  async function registerWith(metadata: Record<string, unknown>): Promise<LightMyRequestResponse> {
    return app.inject({
      method: 'POST',
      url: '/dev-idp/reg',
      headers: { host: 'gw.test', 'content-type': 'application/json' },
      payload: { token_endpoint_auth_method: 'none', ...metadata },
    });
  }

  test('MCP authorization: open registration accepts only https and loopback http redirect URIs', async () => {
    for (const uri of [
      'http://127.0.0.1:33418/callback',
      'http://localhost:6274/oauth/callback',
      'http://[::1]:8080/cb',
      'https://vscode.dev/redirect',
    ]) {
      const accepted = await registerWith({ redirect_uris: [uri] });
      assert.equal(accepted.statusCode, 201, `${uri}: ${accepted.body}`);
    }
    for (const [uri, applicationType] of [
      ['http://attacker.example/cb', 'web'],
      ['http://192.168.1.20:8080/cb', 'web'],
      ['http://127.0.0.1.nip.io/cb', 'web'],
      ['http://10.0.0.7/cb', 'native'],
      ['com.example.agent:/oauth/callback', 'native'],
    ] as const) {
      const refused = await registerWith({
        redirect_uris: ['http://127.0.0.1:1/cb', uri],
        application_type: applicationType,
      });
      assert.equal(refused.statusCode, 400, `${uri}: ${refused.body}`);
      const body = refused.json() as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_redirect_uri', uri);
      assert.match(body.error_description, /https URLs or loopback http URLs/, uri);
    }
  });

  function authorizeUrl(clientId: string, challenge: string): string {
    return `/dev-idp/auth?${new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid profile offline_access accounts:read',
      prompt: 'consent',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: RESOURCE,
      state: 's1',
    }).toString()}`;
  }

  test('RFC 8414: the metadata answers at the path-inserted and the issuer-relative URLs', async () => {
    for (const url of [
      '/.well-known/oauth-authorization-server/dev-idp',
      '/.well-known/openid-configuration/dev-idp',
      '/dev-idp/.well-known/oauth-authorization-server',
      '/dev-idp/.well-known/openid-configuration',
    ]) {
      const response = await app.inject({ method: 'GET', url, headers: { host: 'gw.test' } });
      assert.equal(response.statusCode, 200, url);
      const doc = response.json() as Record<string, unknown>;
      assert.equal(doc.issuer, ISSUER, url);
      assert.equal(doc.token_endpoint, `${ISSUER}/token`);
      assert.equal(doc.registration_endpoint, `${ISSUER}/reg`);
      assert.equal(doc.jwks_uri, `${ISSUER}/jwks.json`);
      assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(doc.response_types_supported, ['code']);
    }
    const jwks = await app.inject({
      method: 'GET',
      url: '/dev-idp/jwks.json',
      headers: { host: 'gw.test' },
    });
    assert.deepEqual(jwks.json(), idp.jwks(), 'the same key as `toolgate token` signs with');
  });

  test('sign-in page → consent → code → JWT for the resource; refresh tokens rotate', async () => {
    jar.clear();
    const clientId = await register();
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');

    const toLogin = location(await send('GET', authorizeUrl(clientId, challenge)));
    assert.match(toLogin, /\/dev-idp\/interaction\//);
    const loginPage = await send('GET', toLogin);
    assert.equal(loginPage.statusCode, 200);
    const csp = String(loginPage.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:1/);
    assert.ok(!loginPage.body.includes('<script>'), 'user names are escaped');
    assert.ok(loginPage.body.includes('Alice &lt;script&gt;'));
    assert.ok(
      loginPage.body.includes('Test &lt;b&gt;client&lt;/b&gt;'),
      'the client name is escaped',
    );
    assert.ok(loginPage.body.includes('value="bob"'));

    const refused = await send('POST', `${new URL(toLogin, ORIGIN).pathname}/login`, {
      sub: 'mallory',
    });
    assert.equal(refused.statusCode, 400, 'only configured users sign in');
    const resume = location(
      await send('POST', `${new URL(toLogin, ORIGIN).pathname}/login`, { sub: 'alice' }),
    );
    const toConsent = location(await send('GET', resume));
    const consent = await send('GET', toConsent);
    assert.equal(consent.statusCode, 200);
    assert.match(consent.body, /accounts:read/);
    assert.match(consent.body, /Allow/);
    const back = location(
      await send('POST', `${new URL(toConsent, ORIGIN).pathname}/consent`, { decision: 'allow' }),
    );
    const callback = new URL(location(await send('GET', back)));
    assert.equal(`${callback.origin}${callback.pathname}`, REDIRECT);
    assert.equal(callback.searchParams.get('state'), 's1');
    assert.equal(callback.searchParams.get('iss'), ISSUER);
    const code = callback.searchParams.get('code');
    assert.ok(code);

    const tokenRequest = (form: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/dev-idp/token',
        headers: { host: 'gw.test', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ client_id: clientId, ...form }).toString(),
      });
    const wrongVerifier = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: randomBytes(32).toString('base64url'),
      resource: RESOURCE,
    });
    assert.equal(wrongVerifier.statusCode, 400, 'PKCE: a wrong verifier is refused');
    // (A refused exchange consumes the code, as RFC 6749 §4.1.2 wants; sign in again.)
    jar.clear();
    const again = await signInAgain(clientId, challenge);
    const exchanged = await tokenRequest({
      grant_type: 'authorization_code',
      code: again,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource: RESOURCE,
    });
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    const tokens = exchanged.json() as { access_token: string; refresh_token: string };
    const claims = decodeJwt(tokens.access_token);
    assert.equal(claims.iss, ISSUER);
    assert.equal(claims.aud, RESOURCE);
    assert.equal(claims.sub, 'alice');
    assert.equal(claims.email, 'alice@example.com');
    assert.equal(claims.scope, 'accounts:read');
    assert.equal(decodeProtectedHeader(tokens.access_token).kid, idp.kid);

    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      resource: RESOURCE,
    });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    const next = refreshed.json() as { access_token: string; refresh_token: string };
    assert.notEqual(next.refresh_token, tokens.refresh_token);
    const reused = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      resource: RESOURCE,
    });
    assert.equal(reused.statusCode, 400, 'a rotated refresh token is spent');
  });

  async function signInAgain(clientId: string, challenge: string): Promise<string> {
    const toLogin = location(await send('GET', authorizeUrl(clientId, challenge)));
    const resume = location(
      await send('POST', `${new URL(toLogin, ORIGIN).pathname}/login`, { sub: 'alice' }),
    );
    const toConsent = location(await send('GET', resume));
    const back = location(
      await send('POST', `${new URL(toConsent, ORIGIN).pathname}/consent`, { decision: 'allow' }),
    );
    const code = new URL(location(await send('GET', back))).searchParams.get('code');
    assert.ok(code);
    return code;
  }

  test('denying consent sends the client access_denied', async () => {
    jar.clear();
    const clientId = await register();
    const challenge = createHash('sha256').update('v'.repeat(43)).digest('base64url');
    const toLogin = location(await send('GET', authorizeUrl(clientId, challenge)));
    const resume = location(
      await send('POST', `${new URL(toLogin, ORIGIN).pathname}/login`, { sub: 'bob' }),
    );
    const toConsent = location(await send('GET', resume));
    const back = location(
      await send('POST', `${new URL(toConsent, ORIGIN).pathname}/consent`, { decision: 'deny' }),
    );
    const callback = new URL(location(await send('GET', back)));
    assert.equal(callback.searchParams.get('error'), 'access_denied');
  });

  test('an interaction without its cookie is refused with a page, not an error dump', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/dev-idp/interaction/unknown',
      headers: { host: 'gw.test' },
    });
    assert.equal(response.statusCode, 400);
    assert.match(String(response.headers['content-type']), /text\/html/);
    assert.match(response.body, /expired/);
  });
});
