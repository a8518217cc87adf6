// Identity mode delegation end to end over HTTP (issue 28: "per-user delegation: when the upstream
// requires its own OAuth sign-in, the user is sent through that server's authorization flow once, the
// user's upstream tokens are stored encrypted per user and refreshed, and each call carries the token of
// the user on whose behalf the agent acts"; "one needing OAuth sign-in (an oidc-provider in the test)
// reached through per-user delegation with two users whose tokens never cross").
// The gateway (with its development identity provider, where the portal signs users in) and the admin
// listener (the portal, with the connect pages) listen on loopback; the upstream's own authorization server
// is a separate oidc-provider with accounts alice and bob. Alice and Bob each drive their browser through
// the portal sign-in and the upstream sign-in with plain HTTP requests, following redirects and forms.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { devIdpIssuer } from '../../../src/gateway/auth/settings.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import { configuredDelegation } from '../../../src/gateway/federation/delegation/configured.js';
import type { DelegationProvider } from '../../../src/gateway/federation/delegation/provider.js';
import type { UpstreamAuthorizationServer } from './support/upstream-as.js';
import { Browser } from './support/browser.js';
import {
  BACKEND,
  callerFor,
  startDelegationWorld,
  userAnswers,
  type DelegationWorld,
} from './support/delegation-world.js';

describe('identity mode delegation: connecting upstream accounts through the portal', () => {
  let world: DelegationWorld;
  let upstream: UpstreamAuthorizationServer;
  let delegation: DelegationProvider;
  const alice = new Browser('alice');
  const bob = new Browser('bob');

  before(async () => {
    world = await startDelegationWorld();
    upstream = world.upstream;
    delegation = world.delegation;
  });
  after(async () => world?.close());

  const connectLink = () => world.connectLink;
  const connect = (browser: Browser, user: string) => world.connect(browser, user);

  async function headersOf(subject: string): Promise<Readonly<Record<string, string>>> {
    const credentials = await delegation(callerFor(subject), BACKEND);
    assert.equal(credentials.kind, 'headers', JSON.stringify(credentials));
    return credentials.kind === 'headers' ? credentials.headers : {};
  }

  const bearerOf = (headers: Readonly<Record<string, string>>) =>
    (headers.Authorization ?? '').replace(/^Bearer /, '');

  test('before connecting: the call answers with the sign-in (the portal connect page), per user', async () => {
    const forAlice = await delegation(callerFor('alice'), BACKEND);
    const forBob = await delegation(callerFor('bob'), BACKEND);
    assert.equal(forAlice.kind, 'sign-in');
    assert.equal(forBob.kind, 'sign-in');
    if (forAlice.kind !== 'sign-in' || forBob.kind !== 'sign-in') return;
    assert.equal(forAlice.url, connectLink(), 'the link names the backend, never the user');
    assert.equal(forAlice.backend, BACKEND);
    assert.match(forAlice.message, /notes/);
    assert.notEqual(forAlice.elicitationId, forBob.elicitationId, 'the elicitation id is per user');
    const again = await delegation(callerFor('alice'), BACKEND);
    assert.equal(again.kind === 'sign-in' && again.elicitationId, forAlice.elicitationId, 'stable');
    assert.ok(!forAlice.elicitationId.includes('alice'), 'the id does not reveal the subject');
  });

  test('an anonymous caller cannot delegate: a clear error, no sign-in link', async () => {
    await assert.rejects(delegation(callerFor(null), BACKEND), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.code, 'FORBIDDEN');
      assert.match(error.message, /without a signed-in user/);
      assert.deepEqual(error.data, { backend: BACKEND, reason: 'USER_TOKEN_REQUIRED' });
      return true;
    });
  });

  test('Alice connects: portal sign-in first, back to the connect page, upstream sign-in, token stored for her', async () => {
    const done = await connect(alice, 'alice');
    assert.equal(done.status, 200, done.body.slice(0, 500));
    assert.equal(done.url.pathname, '/portal/federation/callback');
    assert.match(done.body, /Your account at notes is connected/);
    assert.match(done.body, /Go back to your agent/);
    const token = bearerOf(await headersOf('alice'));
    assert.equal(await upstream.whoseToken(token), 'alice', "the upstream's token is Alice's");
    assert.equal(upstream.holderOf(token), 'alice');
  });

  test('Bob connects and gets his own token; each caller gets their own, never the other’s', async () => {
    const done = await connect(bob, 'bob');
    assert.equal(done.status, 200, done.body.slice(0, 500));
    const aliceToken = bearerOf(await headersOf('alice'));
    const bobToken = bearerOf(await headersOf('bob'));
    assert.notEqual(aliceToken, bobToken);
    assert.equal(await upstream.whoseToken(aliceToken), 'alice');
    assert.equal(await upstream.whoseToken(bobToken), 'bob');
    // At rest: the rows hold neither token, and Alice's row does not open as Bob's.
    const rows = await world.db.query<{ subject: string; sealed: string }>(
      'SELECT subject, sealed FROM gateway_delegated_tokens ORDER BY subject',
    );
    assert.deepEqual(
      rows.map((r) => r.subject),
      ['alice', 'bob'],
    );
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(aliceToken) && !dump.includes(bobToken));
    const aliceRow = rows[0]?.sealed ?? '';
    assert.throws(() => delegation.cipher.open('bob', BACKEND, aliceRow), /does not open/);
  });

  test("security core: Alice's sign-in (her authorization URL) completed by Bob stores nothing under Alice", async () => {
    const before = await delegation.store.get('alice', BACKEND);
    const beforeBob = await delegation.store.get('bob', BACKEND);
    // Alice (signed in to the portal) starts connecting; the upstream authorization URL carries her state.
    const started = await alice.request(new URL(connectLink()));
    assert.equal(started.status, 303);
    const authorizationUrl = String(started.headers.get('location'));
    assert.ok(authorizationUrl.startsWith(upstream.issuer), authorizationUrl);
    // Bob opens it (a forwarded link), signs in at the upstream as himself and comes back to the portal.
    const done = await bob.browse(authorizationUrl, userAnswers('bob'));
    assert.equal(done.url.pathname, '/portal/federation/callback');
    assert.equal(done.status, 403, done.body.slice(0, 300));
    assert.match(done.body, /started by another user\. Nothing was stored/);
    assert.equal((await delegation.store.get('alice', BACKEND))?.sealed, before?.sealed);
    assert.equal((await delegation.store.get('bob', BACKEND))?.sealed, beforeBob?.sealed);
    assert.equal(
      await upstream.whoseToken(bearerOf(await headersOf('alice'))),
      'alice',
      "Alice's calls still carry Alice's token",
    );
  });

  test("security core: Bob's finished sign-in replayed in Alice's browser stores nothing under Alice (login CSRF)", async () => {
    const before = await delegation.store.get('alice', BACKEND);
    const beforeBob = await delegation.store.get('bob', BACKEND);
    // Bob goes through the upstream sign-in but stops before his browser reaches the callback.
    const stopped = await bob.browse(connectLink(), userAnswers('bob'), (url) =>
      url.pathname.endsWith('/portal/federation/callback'),
    );
    assert.equal(stopped.status, 0);
    assert.ok(stopped.url.searchParams.has('code'));
    // He gets Alice to open it (a link in a mail): her portal session is Alice's.
    const done = await alice.browse(stopped.url, userAnswers('alice'));
    assert.equal(done.status, 403, done.body.slice(0, 300));
    assert.match(done.body, /started by another user\. Nothing was stored/);
    assert.equal((await delegation.store.get('alice', BACKEND))?.sealed, before?.sealed);
    assert.equal((await delegation.store.get('bob', BACKEND))?.sealed, beforeBob?.sealed);
  });

  test('the same user in another browser cannot complete a sign-in started elsewhere (browser binding)', async () => {
    const before = await delegation.store.get('alice', BACKEND);
    const started = await alice.request(new URL(connectLink()));
    const authorizationUrl = String(started.headers.get('location'));
    // Another browser of Alice: signed in to the portal as Alice, but without the binding cookie.
    const other = new Browser('alice-2');
    for (const [k, v] of alice.cookies('127.0.0.1'))
      if (k !== 'toolgate_federation') other.cookies('127.0.0.1').set(k, v);
    const done = await other.browse(authorizationUrl, userAnswers('alice'));
    assert.equal(done.status, 400, done.body.slice(0, 300));
    assert.match(done.body, /not started in this browser/);
    assert.equal((await delegation.store.get('alice', BACKEND))?.sealed, before?.sealed);
  });

  test('a callback is usable once: replaying a completed one stores nothing', async () => {
    const finished = await alice.browse(connectLink(), userAnswers('alice'), (url) =>
      url.pathname.endsWith('/portal/federation/callback'),
    );
    const first = await alice.browse(finished.url);
    assert.equal(first.status, 200, first.body.slice(0, 300));
    const stored = await delegation.store.get('alice', BACKEND);
    const replay = await alice.browse(finished.url);
    assert.equal(replay.status, 400);
    assert.match(replay.body, /unknown or expired/);
    assert.equal((await delegation.store.get('alice', BACKEND))?.sealed, stored?.sealed);
  });

  test('the row records the issuer of the portal sign-in; a call whose token names another issuer does not get it', async () => {
    const devIdp = devIdpIssuer(world.config);
    assert.equal((await delegation.store.get('bob', BACKEND))?.tokens.issuer, devIdp);
    const same = await delegation(callerFor('bob', devIdp), BACKEND);
    assert.equal(same.kind, 'headers', 'the gateway user token from the same provider');
    await assert.rejects(
      delegation(callerFor('bob', 'https://elsewhere.example/'), BACKEND),
      (error: unknown) => {
        assert.ok(error instanceof GatewayError);
        assert.equal(error.code, 'FORBIDDEN');
        assert.deepEqual(error.data, { backend: BACKEND, reason: 'ISSUER_MISMATCH' });
        return true;
      },
    );
  });

  test('the configured provider (what the gateway builds) reads the same rows', async () => {
    const built = configuredDelegation(world.config, world.db);
    assert.ok(built);
    const credentials = await built(callerFor('bob'), BACKEND);
    assert.equal(credentials.kind, 'headers');
    if (credentials.kind === 'headers')
      assert.equal(await upstream.whoseToken(bearerOf(credentials.headers)), 'bob');
  });

  test('refresh policy: an expired token is refreshed at the upstream token endpoint, stored and used', async () => {
    const old = await delegation.store.get('alice', BACKEND);
    assert.ok(old?.tokens.expiresAt !== undefined && old.tokens.refreshToken !== undefined);
    const refreshes = upstream.refreshes;
    world.now = old.tokens.expiresAt + 1000; // past its expiry
    const token = bearerOf(await headersOf('alice'));
    assert.notEqual(token, old.tokens.accessToken);
    assert.equal(upstream.refreshes, refreshes + 1);
    assert.equal(await upstream.whoseToken(token), 'alice');
    const stored = await delegation.store.get('alice', BACKEND);
    assert.equal(stored?.tokens.accessToken, token, 'the refreshed token is stored');
    assert.notEqual(
      stored?.tokens.refreshToken,
      old.tokens.refreshToken,
      'rotated refresh token kept',
    );
    assert.ok((stored?.tokens.expiresAt ?? 0) > world.now);
    assert.equal(stored?.tokens.issuer, old.tokens.issuer, 'the connecting issuer is kept');
    // Bob's token is not touched by Alice's refresh.
    assert.equal(await upstream.whoseToken(bearerOf(await headersOf('bob'))), 'bob');
  });

  test('refresh policy: concurrent calls with an expired token refresh once', async () => {
    const old = await delegation.store.get('alice', BACKEND);
    world.now = (old?.tokens.expiresAt ?? world.now) + 1000;
    const refreshes = upstream.refreshes;
    const [a, b, c] = await Promise.all([
      headersOf('alice'),
      headersOf('alice'),
      headersOf('alice'),
    ]);
    assert.equal(
      upstream.refreshes,
      refreshes + 1,
      'one refresh (a rotated refresh token is good once)',
    );
    assert.equal(bearerOf(a), bearerOf(b));
    assert.equal(bearerOf(b), bearerOf(c));
  });

  test('a revoked refresh token leads back to sign-in, and the dead tokens are forgotten', async () => {
    const stored = await delegation.store.get('alice', BACKEND);
    assert.ok(stored?.tokens.refreshToken);
    await upstream.revoke(stored.tokens.refreshToken, 'refresh_token');
    world.now = (stored.tokens.expiresAt ?? world.now) + 1000;
    const credentials = await delegation(callerFor('alice'), BACKEND);
    assert.equal(credentials.kind, 'sign-in');
    assert.equal(await delegation.store.get('alice', BACKEND), null);
    assert.equal(credentials.kind === 'sign-in' && credentials.url, connectLink());
  });

  test('upstream 401 on a delegated call: rejected() drops that token and the next call asks to sign in', async () => {
    const done = await connect(alice, 'alice');
    assert.equal(done.status, 200, done.body.slice(0, 300));
    const headers = await headersOf('alice');
    // A stale token (not the stored one) does not drop the stored one.
    assert.equal(
      await delegation.rejected(callerFor('alice'), BACKEND, { Authorization: 'Bearer stale' }),
      false,
    );
    assert.equal((await delegation(callerFor('alice'), BACKEND)).kind, 'headers');
    // Bob's rejection of his own token does not touch Alice's.
    assert.equal(await delegation.rejected(callerFor('bob'), BACKEND, headers), false);
    assert.equal(await delegation.rejected(callerFor('alice'), BACKEND, headers), true);
    assert.equal((await delegation(callerFor('alice'), BACKEND)).kind, 'sign-in');
    assert.equal((await delegation(callerFor('bob'), BACKEND)).kind, 'headers');
  });

  test('disconnect: a POST without the CSRF token is refused; with it, the tokens are forgotten (the connections page shows both)', async () => {
    const page = await connect(bob, 'bob');
    assert.equal(page.status, 200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(csrf, 'the connected page has the disconnect form');
    const url = new URL(`${world.adminUrl}/portal/federation/${BACKEND}/disconnect`);
    const refused = await bob.request(url, { method: 'POST', form: { _csrf: 'wrong' } });
    assert.equal(refused.status, 403);
    assert.ok(await delegation.store.get('bob', BACKEND), 'kept');
    const list = new URL(`${world.adminUrl}/portal/federation`);
    const before = await (await bob.request(list)).text();
    assert.match(before, /<td>notes<\/td>\s*<td>connected<\/td>/);
    const ok = await bob.request(url, { method: 'POST', form: { _csrf: csrf } });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /disconnected/);
    assert.equal(await delegation.store.get('bob', BACKEND), null);
    const afterwards = await (await bob.request(list)).text();
    assert.match(afterwards, /<td>notes<\/td>\s*<td>not connected<\/td>/);
    assert.match(afterwards, /href="\/portal\/federation\/notes\/connect"/);
  });

  test('an unknown backend has no connect page', async () => {
    const response = await alice.request(
      new URL(`${world.adminUrl}/portal/federation/other/connect`),
    );
    assert.equal(response.status, 404);
  });
});
