// The portal's guards, driven with inject: security headers (CSP) on every page, sign-in failures,
// the session cookie's attributes and its hashed storage, CSRF refusal, idle and absolute expiry,
// and escaping of hostile input by construction.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../../../src/shared/http/create-app.js';
import { createLogger } from '../../../src/shared/log/logger.js';
import { openSqlite } from '../../../src/shared/db/sqlite.js';
import type { Database } from '../../../src/shared/db/types.js';
import type { Actor } from '../../../src/gateway/admin/actor.js';
import { portalPlugin, type PortalDeps } from '../../../src/gateway/portal/plugin.js';
import { CONTENT_SECURITY_POLICY } from '../../../src/gateway/portal/http-security.js';
import { sha256 } from '../../../src/gateway/portal/session-store.js';
import { html, trusted } from '../../../src/gateway/portal/html.js';
import { page } from '../../../src/gateway/portal/layout.js';

const ADMIN_TOKEN = 'bootstrap-token-for-portal-tests-0123456789';
const DEV_TOKEN = 'developer-token-for-portal-tests-0123456789';

async function authenticateToken(token: string): Promise<Actor | null> {
  if (token === ADMIN_TOKEN)
    return { role: 'admin', subject: 'bootstrap-admin', via: 'bootstrap-token' };
  if (token === DEV_TOKEN) return { role: 'developer', subject: 'dana', via: 'bearer-token' };
  return null;
}

/** An app with the portal at /portal, on `db`, as the admin service mounts it. */
async function portalApp(
  db: Database,
  deps: Omit<PortalDeps, 'db' | 'session' | 'roles' | 'listener' | 'authenticateToken'>,
): Promise<FastifyInstance> {
  const { logger } = createLogger({ level: 'silent' });
  const app = createHttpApp({
    logger,
    bodyLimitBytes: 65536,
    requestTimeoutMs: 5000,
    keepAliveTimeoutMs: 5000,
  });
  await app.register(
    portalPlugin({
      db,
      session: { idleMinutes: 30, absoluteHours: 8 },
      roles: { roleClaim: 'roles', adminRole: 'toolgate-admin' },
      listener: { host: '127.0.0.1', port: 8082 },
      authenticateToken,
      ...deps,
    }),
    { prefix: '/portal' },
  );
  await app.ready();
  return app;
}

function cookieOf(setCookie: string | string[] | undefined): string {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  assert.ok(first, 'a cookie is set');
  return first.split(';')[0] as string;
}

function csrfOf(body: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(body);
  assert.ok(match, 'the page carries a CSRF token');
  return match[1] as string;
}

describe('portal security (inject)', () => {
  let app: FastifyInstance;
  let db: Database;
  let now = Date.parse('2026-01-01T10:00:00Z');

  before(async () => {
    db = openSqlite({ path: ':memory:' });
    app = await portalApp(db, {
      clock: () => now,
      pages: [
        (instance, portal) =>
          instance.get('/applications', async (request, reply) => {
            const session = await portal.requireSession(request, reply);
            if (session === null) return reply;
            return portal.sendPage(
              reply,
              page(portal.assets, {
                title: 'Apps',
                session,
                body: html`<p>${session.actor.subject}</p>`,
              }),
            );
          }),
      ],
    });
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  async function signIn(token: string): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost:80',
      },
      payload: `token=${encodeURIComponent(token)}`,
    });
    assert.equal(res.statusCode, 303, res.body);
    return cookieOf(res.headers['set-cookie']);
  }

  test('pages carry the strict CSP, nosniff, no-referrer and no-store', async () => {
    const res = await app.inject({ method: 'GET', url: '/portal/sign-in' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.doesNotMatch(res.body, /<script>|style=|onclick=/, 'no inline script or style');
    const css = /href="(\/portal\/assets\/portal\.[0-9a-f]+\.css)"/.exec(res.body)?.[1];
    assert.ok(css);
    const asset = await app.inject({ method: 'GET', url: css });
    assert.equal(asset.statusCode, 200);
    assert.match(String(asset.headers['content-type']), /text\/css/);
    assert.match(String(asset.headers['cache-control']), /immutable/);
  });

  test('sign-in failures: empty and unknown tokens are refused with the error at the field', async () => {
    for (const token of ['', 'not-a-token']) {
      const res = await app.inject({
        method: 'POST',
        url: '/portal/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `token=${token}`,
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['set-cookie'], undefined, 'no session for a refused token');
      assert.match(res.body, /aria-describedby="f-token-error"/);
      assert.match(
        res.body,
        /id="f-token-error" class="field-error">(Enter a token|This token is not accepted)/,
      );
    }
  });

  test('sign-in from another origin is refused even with a good token', async () => {
    const crossSite = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
        origin: 'null',
      },
      payload: `token=${ADMIN_TOKEN}`,
    });
    assert.equal(crossSite.statusCode, 403);
    assert.equal(crossSite.headers['set-cookie'], undefined);
    const res = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
      },
      payload: `token=${ADMIN_TOKEN}`,
    });
    assert.equal(res.statusCode, 403);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  test('the session cookie is HttpOnly, SameSite=Strict, under /portal; only its hash is stored', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${ADMIN_TOKEN}`,
    });
    const header = String(res.headers['set-cookie']);
    assert.match(header, /^toolgate_portal=[A-Za-z0-9_-]{43};/);
    assert.match(header, /HttpOnly/);
    assert.match(header, /SameSite=Strict/);
    assert.match(header, /Path=\/portal/);
    assert.doesNotMatch(header, /Secure/, 'plain http on localhost: no Secure flag');
    const id = cookieOf(header).split('=')[1] as string;
    const rows = await db.query<{ id_hash: string }>('SELECT id_hash FROM portal_sessions');
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => r.id_hash !== id && /^[0-9a-f]{64}$/.test(r.id_hash)));
  });

  test('a forged X-Forwarded-Proto does not switch the cookie to its HTTPS form', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/portal/sign-in',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-proto': 'https',
      },
      payload: `token=${ADMIN_TOKEN}`,
    });
    // Without trustProxy the forwarded header is ignored: the cookie stays a plain-http one.
    assert.doesNotMatch(String(res.headers['set-cookie']), /__Host-/);
  });

  test('a POST without or with a wrong CSRF token is refused; the right one works', async () => {
    const cookie = await signIn(DEV_TOKEN);
    const pageRes = await app.inject({
      method: 'GET',
      url: '/portal/applications',
      headers: { cookie },
    });
    assert.equal(pageRes.statusCode, 200);
    const csrf = csrfOf(pageRes.body);
    const offByOne = `${csrf.slice(0, -1)}${csrf.endsWith('x') ? 'y' : 'x'}`;
    for (const payload of ['', '_csrf=', `_csrf=${offByOne}`, `_csrf=${csrf}&_csrf=${csrf}`]) {
      const res = await app.inject({
        method: 'POST',
        url: '/portal/sign-out',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      assert.equal(res.statusCode, 403, `refused: ${payload}`);
      assert.match(res.body, /CSRF/);
    }
    const still = await app.inject({
      method: 'GET',
      url: '/portal/applications',
      headers: { cookie },
    });
    assert.equal(still.statusCode, 200, 'refused forms changed nothing');
    const out = await app.inject({
      method: 'POST',
      url: '/portal/sign-out',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(csrf)}`,
    });
    assert.equal(out.statusCode, 200);
    assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
    const after = await app.inject({
      method: 'GET',
      url: '/portal/applications',
      headers: { cookie },
    });
    assert.equal(after.statusCode, 303, 'signed out: the old cookie opens nothing');
    assert.equal(after.headers.location, '/portal/sign-in');
  });

  test('a CSRF token of another session is refused', async () => {
    const a = await signIn(DEV_TOKEN);
    const b = await signIn(DEV_TOKEN);
    const pageA = await app.inject({
      method: 'GET',
      url: '/portal/applications',
      headers: { cookie: a },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/portal/sign-out',
      headers: { cookie: b, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(csrfOf(pageA.body))}`,
    });
    assert.equal(res.statusCode, 403);
  });

  test('sessions end after the idle timeout, and at the absolute limit despite activity', async () => {
    const start = now;
    const idle = await signIn(DEV_TOKEN);
    now = start + 29 * 60_000;
    assert.equal(
      (await app.inject({ url: '/portal/applications', headers: { cookie: idle } })).statusCode,
      200,
    );
    now = start + 29 * 60_000 + 30 * 60_000;
    const expired = await app.inject({ url: '/portal/applications', headers: { cookie: idle } });
    assert.equal(expired.statusCode, 303, 'idle for 30 minutes: signed out');

    const busy = await signIn(DEV_TOKEN);
    const signedInAt = now;
    for (let t = 20 * 60_000; t < 8 * 3_600_000; t += 20 * 60_000) {
      now = signedInAt + t;
      const res = await app.inject({ url: '/portal/applications', headers: { cookie: busy } });
      assert.equal(res.statusCode, 200);
    }
    now = signedInAt + 8 * 3_600_000 - 1;
    assert.equal(
      (await app.inject({ url: '/portal/applications', headers: { cookie: busy } })).statusCode,
      200,
    );
    now = signedInAt + 8 * 3_600_000;
    assert.equal(
      (await app.inject({ url: '/portal/applications', headers: { cookie: busy } })).statusCode,
      303,
      'eight hours after sign-in: signed out although active',
    );
  });

  test('pages without a session redirect to sign-in; a forged cookie opens nothing', async () => {
    for (const cookie of [
      undefined,
      'toolgate_portal=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const res = await app.inject({
        url: '/portal/applications',
        headers: cookie ? { cookie } : {},
      });
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, '/portal/sign-in');
    }
  });

  test('the OIDC callback refuses an unknown state (and sign-in via OIDC is off when unconfigured)', async () => {
    const res = await app.inject({ url: '/portal/auth/callback?state=abc&code=def' });
    assert.equal(res.statusCode, 404);
    const start = await app.inject({ url: '/portal/auth/oidc' });
    assert.equal(start.statusCode, 404);
  });
});

describe('html templates escape by construction', () => {
  test('hostile text prints as text; nested templates and trusted constants stay markup', () => {
    const name = '<script>alert("x")</script>\'`&';
    const cell = html`<td title="${name}">${name}</td>`;
    const out = html`${cell}${html`<b>${name}</b>`}${trusted('<hr>')}`.toString();
    assert.equal(
      out,
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&#96;&amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&#96;&amp;</td><b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&#96;&amp;</b><hr>',
    );
    assert.equal(html`${[name, 1, null, undefined, false]}`.toString().includes('<script>'), false);
  });
});

describe('portal OpenID Connect sign-in failures (inject)', () => {
  let app: FastifyInstance;
  let db: Database;

  before(async () => {
    db = openSqlite({ path: ':memory:' });
    app = await portalApp(db, {
      // Nothing listens on port 1: discovery fails.
      oidc: {
        issuer: 'http://127.0.0.1:1/idp',
        clientId: 'portal',
        scopes: ['openid'],
        algorithms: ['ES256'],
      },
    });
  });
  after(async () => {
    await app.close();
    await db.close();
  });

  test('the sign-in page offers the provider; an unreachable provider is a clear 502', async () => {
    const page = await app.inject({ url: '/portal/sign-in' });
    assert.match(page.body, /href="\/portal\/auth\/oidc"/);
    const start = await app.inject({ url: '/portal/auth/oidc' });
    assert.equal(start.statusCode, 502);
    assert.match(start.body, /cannot be reached/);
    assert.equal(start.headers['set-cookie'], undefined, 'no session, no binding cookie');
  });

  test('a callback with an unknown state, a foreign browser or a provider error starts no session', async () => {
    await db.execute(
      'INSERT INTO portal_oidc_logins (state_hash, nonce, code_verifier, expires_at) VALUES ($1, $2, $3, $4)',
      [sha256('known-state'), 'n', 'v', Date.now() + 60_000],
    );
    const cases = [
      { url: '/portal/auth/callback?state=unknown&code=c', cookie: 'toolgate_portal_oidc=unknown' },
      {
        url: '/portal/auth/callback?state=known-state&code=c',
        cookie: 'toolgate_portal_oidc=other',
      },
      { url: '/portal/auth/callback?error=access_denied&state=x', cookie: '' },
    ];
    for (const { url, cookie } of cases) {
      const res = await app.inject({ url, headers: cookie ? { cookie } : {} });
      assert.ok(res.statusCode === 400 || res.statusCode === 401, `${url}: ${res.statusCode}`);
      assert.doesNotMatch(String(res.headers['set-cookie'] ?? ''), /toolgate_portal=[^;]/);
    }
    const rows = await db.query('SELECT 1 FROM portal_sessions');
    assert.equal(rows.length, 0);
  });
});
