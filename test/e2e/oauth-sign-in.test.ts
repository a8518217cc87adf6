// Sign-in as the MCP authorization specification describes it, end to end against `toolgate start`: the
// official TypeScript SDK client starts from nothing but the MCP URL and the subscription key header,
// meets the 401, reads the protected-resource metadata, discovers the development authorization server,
// registers itself (RFC 7591), runs the authorization code flow with PKCE (the test user signed in by
// autoLogin, no page), gets an audience-bound JWT and calls a user-scoped tool as that user. Its access
// token lives 5 s: after it expires (and the gateway's 30 s clock tolerance has passed) the client refreshes it without another sign-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { decodeJwt } from 'jose';
import { demoForFile } from '../helpers/process.js';
import { BrowserlessOAuthProvider, browserlessVisitor } from '../helpers/oauth-client.js';
import { createDevIdp } from '../../src/gateway/auth/dev-idp/idp.js';

const ACCESS_TOKEN_TTL = 5;
const CLOCK_TOLERANCE = 30;
const demo = demoForFile('toolgate-oauth-', (scratch) => {
  const configFile = join(scratch, 'toolgate.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      gateway: {
        auth: {
          devIdentityProvider: { autoLogin: 'alice', accessTokenTtlSeconds: ACCESS_TOKEN_TTL },
        },
      },
    }),
  );
  return { TOOLGATE_CONFIG: configFile };
});

const portalUrl = () => String(demo.summary.portalUrl);

/** The subscription key header only: what a user pastes into Claude Desktop or VS Code. */
function keyOnly(): Record<string, string> {
  const key = demo.printed.headers['Ocp-Apim-Subscription-Key'];
  assert.ok(key !== undefined, 'the printed configuration carries the subscription key');
  return { 'Ocp-Apim-Subscription-Key': key };
}

async function connect(provider: BrowserlessOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'toolgate-oauth-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(demo.printed.url), {
      authProvider: provider,
      requestInit: { headers: keyOnly() },
    }),
  );
  return client;
}

test('MCP authorization: 401 → discovery → registration → code + PKCE → token → a user-scoped tools/call as alice; refresh after expiry without a new sign-in', async () => {
  // The startup summary names the development authorization server clients are sent to.
  assert.equal(demo.summary.authorizationServer, new URL('/dev-idp', demo.printed.url).href);
  const provider = new BrowserlessOAuthProvider();
  const user = await connect(provider);
  try {
    // The SDK's transport meets the 401 on the first user-scoped call and runs the flow.
    await assert.rejects(
      user.callTool({ name: 'getMyAccountBalance', arguments: {} }),
      (error: unknown) => error instanceof UnauthorizedError,
    );
  } finally {
    await user.close();
  }
  assert.equal(provider.authorizations.length, 1, 'the user was sent to sign in once');
  const authorization = provider.authorizations[0];
  assert.ok(authorization !== undefined);
  assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(authorization.searchParams.get('resource'), demo.printed.url);
  assert.ok(provider.client?.client_id, 'the client registered dynamically');
  const callback = provider.callback;
  assert.ok(callback !== undefined && callback.get('code'), 'redirected back with a code');

  // finishAuth exchanges the code (PKCE verifier, resource) for tokens.
  const transport = new StreamableHTTPClientTransport(new URL(demo.printed.url), {
    authProvider: provider,
    requestInit: { headers: keyOnly() },
  });
  await transport.finishAuth(callback);
  const first = provider.stored;
  assert.ok(first?.access_token && first.refresh_token, 'an access and a refresh token');
  const claims = decodeJwt(first.access_token);
  assert.equal(claims.sub, 'alice');
  assert.equal(claims.aud, demo.printed.url, 'RFC 8707: the audience is the MCP resource');
  assert.equal(claims.iss, new URL('/dev-idp', demo.printed.url).href);

  const client = new Client({ name: 'toolgate-oauth-e2e', version: '1.0.0' });
  await client.connect(transport);
  try {
    const balance = await client.callTool({ name: 'getMyAccountBalance', arguments: {} });
    assert.notEqual(balance.isError, true, JSON.stringify(balance.content));
    const mine = (balance.structuredContent as { items: { accountId: string }[] }).items;
    assert.ok(mine.length > 0);
    // The same accounts as with the sample token `toolgate start` prints for alice.
    const sample = new Client({ name: 'toolgate-oauth-e2e-sample', version: '1.0.0' });
    await sample.connect(
      new StreamableHTTPClientTransport(new URL(demo.printed.url), {
        requestInit: { headers: demo.printed.headers },
      }),
    );
    const expected = await sample.callTool({ name: 'getMyAccountBalance', arguments: {} });
    await sample.close();
    assert.deepEqual(
      mine.map((a) => a.accountId),
      (expected.structuredContent as { items: { accountId: string }[] }).items.map(
        (a) => a.accountId,
      ),
    );

    // Past the access token's lifetime the gateway answers 401 and the client refreshes (rotation:
    // a new refresh token too) without sending the user to sign in again.
    // (The gateway allows gateway.auth.jwt.clockToleranceSeconds, 30 by default, past exp.)
    await sleep((ACCESS_TOKEN_TTL + CLOCK_TOLERANCE + 2) * 1000);
    const again = await client.callTool({ name: 'getMyAccountBalance', arguments: {} });
    assert.notEqual(again.isError, true, JSON.stringify(again.content));
    assert.equal(provider.authorizations.length, 1, 'no new sign-in');
    const refreshed = provider.stored;
    assert.ok(refreshed !== undefined);
    assert.notEqual(refreshed.access_token, first.access_token);
    assert.notEqual(refreshed.refresh_token, first.refresh_token, 'the refresh token rotated');
  } finally {
    await client.close();
  }
});

test('A token minted for another resource is refused with 401 and a Bearer challenge', async () => {
  // Signed with the development provider's own key, issuer right — only the audience is another's.
  const idp = await createDevIdp({ dataDir: String(demo.env.TOOLGATE_DATA_DIR) });
  const token = await idp.mintToken({
    sub: 'alice',
    audience: 'https://other.example/mcp',
    issuer: new URL('/dev-idp', demo.printed.url).href,
  });
  const response = await fetch(demo.printed.url, {
    method: 'POST',
    headers: {
      ...keyOnly(),
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    }),
  });
  assert.equal(response.status, 401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  assert.match(challenge, /^Bearer /);
  assert.match(challenge, /error="invalid_token"/);
  assert.match(challenge, /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
});

test('RFC 8707: the authorization server refuses a resource that is not this gateway', async () => {
  const issuer = new URL('/dev-idp', demo.printed.url).href;
  const registered = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: ['http://127.0.0.1:1/cb'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    }),
  });
  assert.equal(registered.status, 201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const url = new URL(`${issuer}/auth`);
  url.search = new URLSearchParams({
    client_id,
    response_type: 'code',
    redirect_uri: 'http://127.0.0.1:1/cb',
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    resource: 'https://other.example/mcp',
  }).toString();
  const response = await fetch(url, { redirect: 'manual' });
  const location = new URL(response.headers.get('location') ?? 'http://none/');
  assert.equal(location.searchParams.get('error'), 'invalid_target');
});

/**
 * The portal's sign-in uses the same provider as MCP clients (issue 16): with no admin.oidc configured,
 * `toolgate start` in development registers the portal as a public client of the development
 * authorization server, and "Sign in with OpenID Connect" runs code + PKCE there (autoLogin: alice).
 */
test('The portal signs a user in through the development authorization server (code + PKCE), as a developer', async () => {
  const visit = browserlessVisitor();
  const signIn = await visit(new URL('auth/oidc', portalUrl()));
  assert.equal(signIn.status, 303);
  const authorize = new URL(signIn.headers.get('location') ?? '');
  assert.equal(
    authorize.origin + authorize.pathname,
    new URL('/dev-idp/auth', demo.printed.url).href,
  );
  assert.equal(authorize.searchParams.get('client_id'), 'toolgate-portal');
  assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
  let next = authorize;
  let landed: Response | undefined;
  for (let hop = 0; hop < 12 && landed === undefined; hop += 1) {
    const response = await visit(next);
    const location = response.headers.get('location');
    assert.ok(
      response.status >= 300 && response.status < 400 && location !== null,
      `redirect expected at ${next.href}, got ${response.status}: ${(await response.text()).slice(0, 300)}`,
    );
    next = new URL(location, next);
    if (next.pathname === '/portal/auth/callback') landed = await visit(next);
  }
  assert.ok(landed, 'the provider sent the browser back to the portal callback');
  // The callback answers with a page that moves on to /portal/ (a SameSite=Strict session cookie set in
  // answer to a cross-site navigation is sent only from the next same-site request).
  assert.equal(landed.status, 200);
  assert.match(await landed.text(), /Signed in\./);
  let home = await visit(new URL('/portal/', portalUrl()));
  for (let hop = 0; hop < 3 && home.status === 303; hop += 1)
    home = await visit(new URL(home.headers.get('location') ?? '', portalUrl()));
  assert.equal(home.status, 200);
  assert.ok(!home.url.includes('sign-in'), 'the portal did not send the user back to sign in');
  const page = await home.text();
  assert.match(page, /alice@example.com\s*\(developer\)/);
});
