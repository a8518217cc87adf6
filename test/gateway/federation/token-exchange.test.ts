// Identity mode token-exchange (issue 28, "token exchange (RFC 8693) at a configured authorization server,
// with the development server supporting the grant so it is tested end to end"): the gateway's
// tokenExchangeProvider against the real development authorization server of a listening gateway. alice
// signs in as an MCP client does; her token is exchanged for one addressed to an upstream; the issued
// token is checked against the server's JWKS. The token endpoint is reached through a counting relay, so
// the tests see how many exchanges reached the server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { createDevIdp, type DevIdp } from '../../../src/gateway/auth/dev-idp/idp.js';
import type { Caller } from '../../../src/gateway/caller.js';
import { GatewayError } from '../../../src/gateway/errors.js';
import {
  tokenExchangeProvider,
  type TokenExchangeBackend,
} from '../../../src/gateway/federation/token-exchange.js';
import { freePort } from '../../helpers/free-port.js';
import { startFixtureBackend, type FixtureBackend } from '../support/fixture-backend.js';
import {
  fixtureBackendConfig,
  startConfiguredGateway,
  type ConfiguredGateway,
} from '../support/gateway.js';
import { devIdpMetadata, signInUser, type DevIdpMetadata } from './support/dev-idp-user.js';

const CLIENT_ID = 'toolgate-gateway';
const CLIENT_SECRET = 'exchange-secret-0123456789abcdef';
const UPSTREAM = 'http://127.0.0.1:3999/mcp';
const OTHER_UPSTREAM = 'https://docs.example/mcp';

let fixture: FixtureBackend;
let gw: ConfiguredGateway;
let gatewayUrl: string;
let mcpUrl: string;
let metadata: DevIdpMetadata;
let relay: CountingRelay;
let idp: DevIdp;

/** A relay in front of the gateway's token endpoint that counts the requests reaching it. */
interface CountingRelay {
  readonly url: string;
  count: number;
  close(): Promise<void>;
}

async function startRelay(target: string): Promise<CountingRelay> {
  const state = { count: 0 };
  const server = createServer((request, response) => {
    state.count += 1;
    void (async () => {
      const body = await readBody(request);
      const answer = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': String(request.headers['content-type']),
          authorization: String(request.headers.authorization ?? ''),
        },
        body,
      });
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'text/plain',
      });
      response.end(Buffer.from(await answer.arrayBuffer()));
    })();
  });
  const url = await listen(server);
  return {
    url,
    get count() {
      return state.count;
    },
    set count(value: number) {
      state.count = value;
    },
    close: () => close(server),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

before(async () => {
  const port = await freePort();
  fixture = await startFixtureBackend();
  gw = await startConfiguredGateway({
    host: '127.0.0.1',
    port,
    // Tool scopes, so user tokens carry scopes the exchange can narrow.
    backends: [
      fixtureBackendConfig(fixture.baseUrl, {
        tools: {
          getPayment: { scopes: ['payments:read'] },
          createPayment: { scopes: ['payments:write'] },
        },
      }),
    ],
    auth: {
      devIdentityProvider: {
        autoLogin: 'alice',
        tokenExchange: {
          clients: [
            {
              clientId: CLIENT_ID,
              clientSecret: CLIENT_SECRET,
              audiences: [UPSTREAM, OTHER_UPSTREAM],
            },
          ],
        },
      },
    },
  });
  await gw.app.listen({ port, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${port}`;
  mcpUrl = `${gatewayUrl}/mcp`;
  metadata = await devIdpMetadata(gatewayUrl);
  relay = await startRelay(metadata.token_endpoint);
  // The key `toolgate token` signs with: the development provider's, in the gateway's data folder.
  idp = await createDevIdp({ dataDir: gw.config.dataDir });
});

after(async () => {
  await relay.close();
  await gw.close();
  await fixture.close();
});

function backend(
  name: string,
  settings: Partial<{
    audience: string;
    resource: string;
    scope: string;
    clientSecret: string;
    tokenEndpoint: string;
  }> = {},
): TokenExchangeBackend {
  return {
    name,
    identity: {
      mode: 'token-exchange',
      tokenExchange: {
        tokenEndpoint: relay.url,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        resource: UPSTREAM,
        timeoutMs: 5000,
        ...settings,
      },
    },
  };
}

function callerWith(token: string | undefined, subject = 'alice'): Caller {
  return {
    requestId: 'r1',
    clientIp: '127.0.0.1',
    subscription: {
      id: 's1',
      application: 'agent',
      environment: 'development',
      tools: 'all',
      rateLimitPerMinute: null,
    },
    user:
      token === undefined
        ? null
        : {
            subject,
            claims: { sub: subject },
            expiresAt: Math.floor(Date.now() / 1000) + 3600,
            tokenHash: 'x',
          },
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  };
}

function bearerOf(credentials: Awaited<ReturnType<ReturnType<typeof tokenExchangeProvider>>>) {
  assert.equal(credentials.kind, 'headers');
  if (credentials.kind !== 'headers') throw new Error('unreachable');
  const header = credentials.headers.authorization ?? '';
  assert.match(header, /^Bearer [\x21-\x7E]+$/);
  return header.slice('Bearer '.length);
}

/** Runs `call`, expecting a GatewayError; also asserts no token or secret appears in it (brief: never). */
async function refusal(
  call: () => Promise<unknown>,
  secrets: readonly string[],
): Promise<GatewayError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    const shown = `${error.message} ${JSON.stringify(error.data)}`;
    for (const secret of secrets)
      assert.ok(!shown.includes(secret), `the error repeats a secret: ${shown}`);
    assert.doesNotMatch(shown, /eyJ[A-Za-z0-9_-]+\./, 'no JWT in the error');
    return error;
  }
  assert.fail('expected a refusal');
}

describe('token exchange at the development authorization server', () => {
  test("RFC 8693 §2: alice's token is exchanged for a JWT for the upstream: signed by the dev IdP, same sub, aud the upstream, act the gateway client (§4.1), scope narrowed, exp not past the subject's", async () => {
    const alice = await signInUser(metadata, mcpUrl, 'openid payments:read payments:write');
    const subject = decodeJwt(alice.accessToken);
    assert.equal(subject.scope, 'payments:read payments:write');
    const exchange = tokenExchangeProvider([
      backend('docs', { scope: 'payments:read accounts:admin' }),
    ]);
    const before = relay.count;
    const token = bearerOf(await exchange(callerWith(alice.accessToken), 'docs'));
    assert.equal(relay.count, before + 1);
    assert.notEqual(token, alice.accessToken);

    const { payload, protectedHeader } = await jwtVerify(
      token,
      createRemoteJWKSet(new URL(metadata.jwks_uri)),
      { issuer: metadata.issuer, audience: UPSTREAM, algorithms: ['ES256'] },
    );
    assert.equal(protectedHeader.typ, 'at+jwt');
    assert.equal(payload.sub, 'alice');
    assert.equal(payload.aud, UPSTREAM, 'only the upstream, not the gateway');
    assert.deepEqual(payload.act, { sub: CLIENT_ID });
    assert.equal(payload.client_id, CLIENT_ID);
    assert.equal(payload.scope, 'payments:read', 'requested ∩ held (RFC 8693 §2.1 scope)');
    assert.equal(payload.email, 'alice@example.com', "the user's claims, as in any access token");
    assert.ok(typeof payload.exp === 'number' && typeof subject.exp === 'number');
    assert.ok(payload.exp <= subject.exp, 'never outlives the subject token');
    assert.ok(payload.exp > Math.floor(Date.now() / 1000));
  });

  test('cache: a second call with the same subject token and backend sends no request; another backend or another token does; concurrent calls share one exchange', async () => {
    const alice = await signInUser(metadata, mcpUrl, 'openid');
    const exchange = tokenExchangeProvider([
      backend('docs'),
      backend('other', { resource: OTHER_UPSTREAM }),
    ]);
    const start = relay.count;
    const [one, two] = await Promise.all([
      exchange(callerWith(alice.accessToken), 'docs'),
      exchange(callerWith(alice.accessToken), 'docs'),
    ]);
    assert.equal(relay.count, start + 1, 'concurrent calls: one request');
    assert.deepEqual(one, two);
    const again = await exchange(callerWith(alice.accessToken), 'docs');
    assert.deepEqual(again, one);
    assert.equal(relay.count, start + 1, 'cache hit: no new request');

    const other = bearerOf(await exchange(callerWith(alice.accessToken), 'other'));
    assert.equal(relay.count, start + 2, 'cached per backend');
    assert.equal(decodeJwt(other).aud, OTHER_UPSTREAM);

    const minted = await idp.mintToken({ sub: 'alice', audience: mcpUrl, issuer: metadata.issuer });
    await exchange(callerWith(minted), 'docs');
    assert.equal(relay.count, start + 3, 'cached per subject token');
  });

  test('cache: the exchanged token is used until shortly before it expires, then exchanged again', async () => {
    const alice = await signInUser(metadata, mcpUrl, 'openid');
    const lifetime = decodeJwt(alice.accessToken);
    const remaining = (lifetime.exp ?? 0) * 1000 - Date.now();
    let clock = Date.now();
    const exchange = tokenExchangeProvider([backend('docs')], { now: () => clock });
    const start = relay.count;
    const first = await exchange(callerWith(alice.accessToken), 'docs');
    clock += remaining - 60_000;
    assert.deepEqual(await exchange(callerWith(alice.accessToken), 'docs'), first);
    assert.equal(relay.count, start + 1, 'a minute before expiry: still cached');
    clock += 45_000;
    await exchange(callerWith(alice.accessToken), 'docs');
    assert.equal(relay.count, start + 2, '15 s before expiry: renewed (margin 30 s)');
  });

  test('cache: bounded; the least recently used subject token is dropped first', async () => {
    const exchange = tokenExchangeProvider([backend('docs')], { maxEntries: 2 });
    const tokens = await Promise.all(
      ['a', 'b', 'c'].map((jti) =>
        idp.mintToken({
          sub: 'alice',
          audience: mcpUrl,
          issuer: metadata.issuer,
          claims: { nonce: jti },
        }),
      ),
    );
    const start = relay.count;
    for (const token of tokens) await exchange(callerWith(token), 'docs');
    assert.equal(relay.count, start + 3);
    await exchange(callerWith(tokens[2]), 'docs');
    await exchange(callerWith(tokens[1]), 'docs');
    assert.equal(relay.count, start + 3, 'the two most recent are kept');
    await exchange(callerWith(tokens[0]), 'docs');
    assert.equal(relay.count, start + 4, 'the oldest was dropped');
  });

  test('a `toolgate token` token (signed with the dev IdP key, no grant) is a valid subject', async () => {
    const minted = await idp.mintToken({ sub: 'bob', audience: mcpUrl, issuer: metadata.issuer });
    const exchange = tokenExchangeProvider([backend('docs', { audience: UPSTREAM })]);
    const token = bearerOf(await exchange(callerWith(minted, 'bob'), 'docs'));
    const claims = decodeJwt(token);
    assert.equal(claims.sub, 'bob');
    assert.deepEqual(claims.roles, ['payments-approver']);
    assert.equal(decodeProtectedHeader(token).alg, 'ES256');
  });

  test('anonymous caller: FORBIDDEN USER_TOKEN_REQUIRED naming the backend, and no request is sent', async () => {
    const exchange = tokenExchangeProvider([backend('docs')]);
    const start = relay.count;
    const error = await refusal(() => exchange(callerWith(undefined), 'docs'), []);
    assert.equal(error.code, 'FORBIDDEN');
    assert.deepEqual(error.data, { reason: 'USER_TOKEN_REQUIRED', backend: 'docs' });
    assert.match(error.message, /backend docs/);
    // A subscription-key caller whose Authorization is not a verified user token is anonymous too.
    const keyOnly = { ...callerWith(undefined), authorization: 'Basic Zm9vOmJhcg==' };
    await refusal(() => exchange(keyOnly, 'docs'), []);
    assert.equal(relay.count, start);
  });

  test('RFC 6749 §2.3.1: a wrong client secret is refused (invalid_client); the message names the client setting and repeats no secret', async () => {
    const alice = await signInUser(metadata, mcpUrl, 'openid');
    const wrong = 'wrong-secret-0123456789abcdef';
    const exchange = tokenExchangeProvider([backend('docs', { clientSecret: wrong })]);
    const error = await refusal(
      () => exchange(callerWith(alice.accessToken), 'docs'),
      [alice.accessToken, wrong, CLIENT_SECRET],
    );
    assert.equal(error.code, 'FORBIDDEN');
    assert.deepEqual(error.data, {
      reason: 'TOKEN_EXCHANGE_REFUSED',
      backend: 'docs',
      error: 'invalid_client',
    });
    assert.match(error.message, /backend docs: .*invalid_client.*clientSecret/);
  });

  test('RFC 8693 §2.2.2: an expired, forged or foreign subject token is refused with invalid_grant, and the error never contains it', async () => {
    const exchange = tokenExchangeProvider([backend('docs')]);
    const past = await createDevIdp({
      dataDir: gw.config.dataDir,
      clock: () => Date.now() - 7200_000,
    });
    const expired = await past.mintToken({
      sub: 'alice',
      audience: mcpUrl,
      issuer: metadata.issuer,
    });
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: idp.kid })
      .setIssuer(metadata.issuer)
      .setAudience(mcpUrl)
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const foreignIssuer = await idp.mintToken({
      sub: 'alice',
      audience: mcpUrl,
      issuer: 'https://elsewhere.example',
    });
    const otherAudience = await idp.mintToken({
      sub: 'alice',
      audience: 'https://not-the-gateway.example',
      issuer: metadata.issuer,
    });
    const unknownUser = await idp.mintToken({
      sub: 'mallory',
      audience: mcpUrl,
      issuer: metadata.issuer,
    });
    const cases: [string, string, RegExp][] = [
      ['expired', expired, /ERR_JWT_EXPIRED/],
      ['forged', forged, /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/],
      ['another issuer', foreignIssuer, /ERR_JWT_CLAIM_VALIDATION_FAILED/],
      ['another audience', otherAudience, /not issued for the gateway/],
      ['unknown user', unknownUser, /no configured user/],
    ];
    for (const [label, token, reason] of cases) {
      const error = await refusal(() => exchange(callerWith(token), 'docs'), [token]);
      assert.equal(error.code, 'FORBIDDEN', label);
      assert.equal((error.data as { error?: string }).error, 'invalid_grant', label);
      assert.match(error.message, reason, label);
    }
  });

  test('a revoked grant: after the refresh token is revoked, its access token is no longer exchanged', async () => {
    const alice = await signInUser(metadata, mcpUrl, 'openid offline_access');
    assert.ok(alice.refreshToken !== undefined);
    const exchange = tokenExchangeProvider([backend('docs')]);
    bearerOf(await exchange(callerWith(alice.accessToken), 'docs'));
    const revoked = await fetch(metadata.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: alice.refreshToken,
        token_type_hint: 'refresh_token',
        client_id: alice.clientId,
      }).toString(),
    });
    assert.equal(revoked.status, 200);
    const fresh = tokenExchangeProvider([backend('docs')]);
    const error = await refusal(
      () => fresh(callerWith(alice.accessToken), 'docs'),
      [alice.accessToken, alice.refreshToken],
    );
    assert.match(error.message, /invalid_grant \(subject_token has been revoked\)/);
  });

  test('RFC 8707 / RFC 8693 §2.2.2: an audience the client may not ask for is refused with invalid_target', async () => {
    const alice = await signInUser(metadata, mcpUrl, 'openid');
    const exchange = tokenExchangeProvider([
      backend('docs', { resource: 'https://unlisted.example/mcp' }),
    ]);
    const error = await refusal(
      () => exchange(callerWith(alice.accessToken), 'docs'),
      [alice.accessToken],
    );
    assert.equal((error.data as { error?: string }).error, 'invalid_target');
    assert.match(error.message, /backend docs/);
  });

  test('a client the server was not configured with cannot use the grant, even registered for it', async () => {
    const registered = await fetch(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [],
        response_types: [],
        grant_types: ['urn:ietf:params:oauth:grant-type:token-exchange'],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    });
    assert.equal(registered.status, 201, await registered.clone().text());
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    const alice = await signInUser(metadata, mcpUrl, 'openid');
    const exchange = tokenExchangeProvider([
      {
        name: 'docs',
        identity: {
          mode: 'token-exchange',
          tokenExchange: {
            tokenEndpoint: metadata.token_endpoint,
            clientId: client.client_id,
            clientSecret: client.client_secret,
            resource: UPSTREAM,
            timeoutMs: 5000,
          },
        },
      },
    ]);
    const error = await refusal(
      () => exchange(callerWith(alice.accessToken), 'docs'),
      [alice.accessToken, client.client_secret],
    );
    assert.equal((error.data as { error?: string }).error, 'unauthorized_client');
  });
});
